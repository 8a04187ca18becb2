package io.eventide.kafka;

import io.eventide.pipeline.KafkaSinkDefinition;
import io.eventide.pipeline.KafkaSinkMode;
import io.eventide.pipeline.PipelineDefinition;
import io.eventide.runtime.PipelineRuntime;
import io.eventide.runtime.PipelineRuntimes;
import io.eventide.sink.PaneListener;
import io.eventide.sink.PublishedPane;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Sends the panes of pipelines with a Kafka sink to their topic. The sink is read from the running
 * pipeline's definition, so a redefinition that moves the topic applies from the next pane on. A
 * definition stored before the name rules held, or before a grant was withdrawn, sends nothing: the
 * start-up log names it.
 */
class KafkaPaneSink implements PaneListener {
  private final KafkaOutbox outbox;

  /** Lazy: the runtimes are built with this listener among their own. */
  private final ObjectProvider<PipelineRuntimes> runtimes;

  private final KafkaNamePolicy names;

  KafkaPaneSink(
      KafkaOutbox outbox, ObjectProvider<PipelineRuntimes> runtimes, KafkaNamePolicy names) {
    this.outbox = outbox;
    this.runtimes = runtimes;
    this.names = names;
  }

  @Override
  public void onPanes(String pipeline, List<PublishedPane> panes) {
    PipelineRuntime runtime = runtimes.getObject().find(pipeline);
    PipelineDefinition definition = runtime == null ? null : runtime.definition();
    KafkaSinkDefinition sink = definition == null ? null : definition.sinks().kafka();
    if (sink == null || !names.violations(definition).isEmpty()) {
      return;
    }
    String policy = sink.mode() == KafkaSinkMode.CHANGELOG ? "compact" : "delete";
    for (PublishedPane published : panes) {
      outbox.offer(KafkaPaneRecords.of(sink.topic(), published), policy);
    }
  }
}
