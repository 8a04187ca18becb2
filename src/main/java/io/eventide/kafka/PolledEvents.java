package io.eventide.kafka;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One poll of an event topic as one batch: each record's value parsed once, the watermark source of
 * each event's partition, and the values that are not JSON (dead-lettered as invalid).
 */
record PolledEvents(List<JsonNode> events, List<String> sources, List<String> unreadable) {
  private static final JsonMapper JSON = JsonMapper.shared();

  static PolledEvents of(List<ConsumerRecord<String, byte[]>> records) {
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
    return new PolledEvents(events, sources, unreadable);
  }

  /** The watermark source of events read from a partition, when they name none themselves. */
  static String sourceName(String topic, int partition) {
    return "kafka:" + topic + ":" + partition;
  }
}
