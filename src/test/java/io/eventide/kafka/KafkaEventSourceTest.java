package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.core.WatermarkTracker;
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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class KafkaEventSourceTest extends KafkaIntegrationTest {
  private static final String TOPIC = "eventide.from-kafka.clicks";

  @Autowired KafkaEventSources sources;
  @Autowired OutputStore store;
  @Autowired DuplicateCounter duplicates;

  @Test
  void consumesCommitsAfterApplyingAndReplaysWithoutDoubleCounting() throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
    }
    define(
        "from-kafka",
        """
        {"window": {"type": "fixed", "size": "10m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating", "aggregate": {"type": "sum"},
         "source": {"kafka": {"topic": "%s"}}}
        """
            .formatted(TOPIC));
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (int i = 1; i <= 20; i++) {
        String key = i % 2 == 0 ? "a" : "b";
        // Both keys on both partitions: each partition is a watermark source of its own.
        producer.send(
            new ProducerRecord<>(
                TOPIC, i % 4 / 2, key, bytes(event(key, "12:0" + (i % 10) + ":00", i, "e" + i))));
      }
      producer.send(new ProducerRecord<>(TOPIC, 0, "bad", bytes("{not json")));
    }
    // a: 2 + 4 + ... + 20 = 110, b: 1 + 3 + ... + 19 = 100
    Map<String, Double> expected = Map.of("a", 110.0, "b", 100.0);
    await().atMost(PATIENCE).until(() -> totals().equals(expected));
    try (Admin admin = admin()) {
      await().atMost(PATIENCE).until(() -> committed(admin) == 21);
    }
    assertThat(read("eventide.from-kafka.dead-letters", 1))
        .singleElement()
        .satisfies(r -> assertThat(value(r).get("reason").stringValue()).isEqualTo("invalid"));
    assertThat(runtime("from-kafka").watermark().join().sources())
        .extracting(WatermarkTracker.SourceView::source)
        .contains("kafka:" + TOPIC + ":0", "kafka:" + TOPIC + ":1");

    // A crash after the effect was applied but before the commit: the offsets go back and the
    // whole topic is read again.
    sources.stop("from-kafka");
    try (Admin admin = admin()) {
      Map<TopicPartition, OffsetAndMetadata> start =
          Map.of(
              new TopicPartition(TOPIC, 0), new OffsetAndMetadata(0),
              new TopicPartition(TOPIC, 1), new OffsetAndMetadata(0));
      admin.alterConsumerGroupOffsets("eventide.from-kafka.source", start).all().get();
      sources.start(registry.find("from-kafka").block());
      await().atMost(PATIENCE).until(() -> duplicates.of("from-kafka") == 20);
      await().atMost(PATIENCE).until(() -> committed(admin) == 21);
    }
    assertThat(totals()).isEqualTo(expected);
  }

  private Map<String, Double> totals() {
    return store
        .results("from-kafka", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10_000)
        .block()
        .records()
        .stream()
        .collect(
            Collectors.groupingBy(
                p -> p.get("key").asString(),
                Collectors.summingDouble(p -> p.get("value").asDouble())));
  }

  private static long committed(Admin admin) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin
            .listConsumerGroupOffsets("eventide.from-kafka.source")
            .partitionsToOffsetAndMetadata()
            .get();
    return offsets.values().stream().mapToLong(o -> o == null ? 0 : o.offset()).sum();
  }

  private static Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
  }

  private static KafkaProducer<String, byte[]> producer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
