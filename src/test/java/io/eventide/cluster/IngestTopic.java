package io.eventide.cluster;

import io.eventide.core.read.EventTexts;
import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.EventFrames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Reads a pipeline's ingest topic, for checking what was logged. */
public final class IngestTopic {
  private IngestTopic() {}

  /** Every event logged to the topic, whatever its lineage. */
  static List<JsonNode> loggedEvents(String topic) {
    List<JsonNode> events = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : records(topic)) {
      Header kind = r.headers().lastHeader("eventide-kind");
      String k = kind == null ? "" : new String(kind.value(), StandardCharsets.UTF_8);
      if (k.equals("EVENT")) {
        events.add(JsonMapper.shared().readTree(r.value()));
      } else if (k.equals("EVENTS")) {
        EventTexts texts = new EventTexts(64);
        EventFrames.read(r.value(), texts);
        for (int i = 0; i < texts.size(); i++) {
          events.add(JsonMapper.shared().readTree(texts.string(i)));
        }
      }
    }
    return events;
  }

  /** Every record of the topic, as logged. */
  public static List<ConsumerRecord<byte[], byte[]>> records(String topic) {
    Map<String, Object> props =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            KafkaTestBroker.get().bootstrapServers(),
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class,
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
            ByteArrayDeserializer.class);
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
    }
    return records;
  }
}
