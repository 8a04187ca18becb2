package io.eventide.kafka;

import io.eventide.pipeline.PipelineDefinition;
import io.eventide.runtime.PipelineRuntimes;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchMessageListener;
import reactor.core.publisher.Mono;

/**
 * Feeds one poll of a pipeline's event topic to its runtime as one batch and returns only once the
 * batch's effect is applied, so that the container (ack mode BATCH) commits the offsets after it. A
 * crash before the commit replays the batch; event ids make the replay count once.
 */
class KafkaEventSource implements BatchMessageListener<String, byte[]> {
  private final PipelineRuntimes runtimes;
  private volatile PipelineDefinition definition;

  KafkaEventSource(PipelineRuntimes runtimes, PipelineDefinition definition) {
    this.runtimes = runtimes;
    this.definition = definition;
  }

  void redefine(PipelineDefinition next) {
    definition = next;
  }

  @Override
  public void onMessage(List<ConsumerRecord<String, byte[]>> records) {
    PolledEvents poll = PolledEvents.of(records);
    runtimes
        .using(
            definition.name(),
            () -> Mono.just(definition),
            runtime ->
                Mono.fromFuture(
                    () -> runtime.ingest(poll.events(), poll.unreadable(), poll.sources()::get)))
        .block();
  }
}
