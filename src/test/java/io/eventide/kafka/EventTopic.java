package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.state.OutputStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** A two-partition event topic of the test broker, what the source tests send to it, and why. */
final class EventTopic implements AutoCloseable {
  /** The sums of key a (2 + 4 + ... + 20) and b (1 + 3 + ... + 19) of the twenty events. */
  static final Map<String, Double> SUMS = Map.of("a", 110.0, "b", 100.0);

  /** The sums once {@link #sendLateComer} was counted too. */
  static final Map<String, Double> SUMS_AND_LATE_COMER = Map.of("a", 110.0, "b", 100.0, "c", 1.0);

  private final String name;
  private final Admin admin;
  private final KafkaProducer<String, byte[]> producer;

  EventTopic(String name) throws Exception {
    this.name = name;
    this.admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                KafkaIntegrationTest.bootstrapServers()));
    admin.createTopics(List.of(new NewTopic(name, 2, (short) 1))).all().get();
    this.producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaIntegrationTest.bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
  }

  /** A pipeline summing every event of the topic, a pane per batch. */
  static String definition(String topic) {
    return """
        {"window": {"type": "fixed", "size": "10m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating", "aggregate": {"type": "sum"},
         "source": {"kafka": {"topic": "%s"}}}
        """
        .formatted(topic);
  }

  /** Events 1..20 with ids, keys a and b on both partitions, then a record that is not JSON. */
  void sendTwentyEventsAndOneThatIsNotJson() throws Exception {
    for (int i = 1; i <= 20; i++) {
      String key = i % 2 == 0 ? "a" : "b";
      // Both keys on both partitions: each partition is a watermark source of its own.
      send(i % 4 / 2, key, KafkaIntegrationTest.event(key, "12:0" + (i % 10) + ":00", i, "e" + i));
    }
    send(0, "bad", "{not json");
  }

  /** One more event, of key c, after the twenty. */
  void sendLateComer(int partition) throws Exception {
    send(partition, "c", KafkaIntegrationTest.event("c", "12:00:00", 1, "late-comer"));
  }

  void send(int partition, String key, String value) throws Exception {
    producer
        .send(new ProducerRecord<>(name, partition, key, value.getBytes(StandardCharsets.UTF_8)))
        .get();
  }

  /** Waits until the latest results of a pipeline's keys are {@code expected}. */
  void awaitTotals(OutputStore store, String pipeline, Map<String, Double> expected) {
    await()
        .atMost(KafkaIntegrationTest.PATIENCE)
        .untilAsserted(() -> assertThat(totals(store, pipeline)).isEqualTo(expected));
  }

  /** The latest result of every key of a pipeline, summed over its windows. */
  static Map<String, Double> totals(OutputStore store, String pipeline) {
    return store
        .results(pipeline, null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10_000)
        .block()
        .records()
        .stream()
        .collect(
            Collectors.groupingBy(
                p -> p.get("key").asString(),
                Collectors.summingDouble(p -> p.get("value").asDouble())));
  }

  /** The offsets a group committed, summed over the topic's partitions. */
  long committed(String group) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.values().stream().mapToLong(o -> o == null ? 0 : o.offset()).sum();
  }

  /** Moves a group's offsets back to the start of the topic (the group must have no member). */
  void rewind(String group) throws Exception {
    admin
        .alterConsumerGroupOffsets(
            group,
            Map.of(
                new TopicPartition(name, 0), new OffsetAndMetadata(0),
                new TopicPartition(name, 1), new OffsetAndMetadata(0)))
        .all()
        .get();
  }

  @Override
  public void close() {
    producer.close();
    admin.close();
  }
}
