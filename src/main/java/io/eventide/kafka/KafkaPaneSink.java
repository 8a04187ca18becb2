package io.eventide.kafka;

import io.eventide.engine.Pane;
import io.eventide.pipeline.KafkaSinkDefinition;
import io.eventide.pipeline.KafkaSinkMode;
import io.eventide.runtime.PipelineRuntime;
import io.eventide.runtime.PipelineRuntimes;
import io.eventide.sink.PaneListener;
import io.eventide.sink.PublishedPane;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Sends the panes of pipelines with a Kafka sink to their topic. The sink is read from the running
 * pipeline's definition, so a redefinition that moves the topic applies from the next pane on.
 */
class KafkaPaneSink implements PaneListener {
  private final KafkaOutbox outbox;

  /** Lazy: the runtimes are built with this listener among their own. */
  private final ObjectProvider<PipelineRuntimes> runtimes;

  KafkaPaneSink(KafkaOutbox outbox, ObjectProvider<PipelineRuntimes> runtimes) {
    this.outbox = outbox;
    this.runtimes = runtimes;
  }

  @Override
  public void onPanes(String pipeline, List<PublishedPane> panes) {
    PipelineRuntime runtime = runtimes.getObject().find(pipeline);
    KafkaSinkDefinition sink = runtime == null ? null : runtime.definition().sinks().kafka();
    if (sink == null) {
      return;
    }
    String policy = sink.mode() == KafkaSinkMode.CHANGELOG ? "compact" : "delete";
    for (PublishedPane published : panes) {
      Pane pane = published.pane();
      outbox.offer(KafkaPaneRecords.of(sink.topic(), pipeline, pane), policy);
    }
  }
}
