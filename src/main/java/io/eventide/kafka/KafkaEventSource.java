package io.eventide.kafka;

import io.eventide.pipeline.PipelineDefinition;
import io.eventide.runtime.PipelineRuntimes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchMessageListener;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Feeds one poll of a pipeline's event topic to its runtime as one batch and returns only once the
 * batch's effect is applied, so that the container (ack mode BATCH) commits the offsets after it. A
 * crash before the commit replays the batch; event ids make the replay count once.
 */
class KafkaEventSource implements BatchMessageListener<String, byte[]> {
  private static final JsonMapper JSON = JsonMapper.shared();

  private final PipelineRuntimes runtimes;
  private volatile PipelineDefinition definition;

  KafkaEventSource(PipelineRuntimes runtimes, PipelineDefinition definition) {
    this.runtimes = runtimes;
    this.definition = definition;
  }

  void redefine(PipelineDefinition next) {
    definition = next;
  }

  /** The watermark source of events read from a partition, when they name none themselves. */
  static String sourceName(String topic, int partition) {
    return "kafka:" + topic + ":" + partition;
  }

  @Override
  public void onMessage(List<ConsumerRecord<String, byte[]>> records) {
    List<JsonNode> events = new ArrayList<>(records.size());
    List<String> sources = new ArrayList<>(records.size());
    List<String> unreadable = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      try {
        events.add(JSON.readTree(record.value()));
        sources.add(sourceName(record.topic(), record.partition()));
      } catch (JacksonException | IllegalArgumentException e) {
        unreadable.add(
            record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8));
      }
    }
    runtimes
        .using(
            definition.name(),
            () -> Mono.just(definition),
            runtime -> Mono.fromFuture(() -> runtime.ingest(events, unreadable, sources::get)))
        .block();
  }
}
