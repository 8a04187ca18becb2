package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.state.TestRedis;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * A stream fed from one Kafka topic ({@code eventide.kafka.streams}): one consumer for the stream,
 * every reader gets each poll, and the offsets are committed once all of them have applied it.
 */
@TestPropertySource(properties = "eventide.kafka.streams[0].stream=taps")
class KafkaStreamSourceTest extends KafkaIntegrationTest {
  private static final String TOPIC = "eventide._stream.taps.in";
  private static final String GROUP = "eventide._stream.taps.source";
  private static final String PREFIX = TestRedis.newKeyPrefix();

  /** A stream's source commits its offsets to the group, which needs state that survives. */
  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    onRedis(registry, PREFIX);
  }

  @AfterAll
  static void deleteKeys() {
    TestRedis.delete(PREFIX);
  }

  @Test
  void aStreamSourceOverTheMemoryStoreIsRefusedAtStartUp() {
    assertThatThrownBy(
            () ->
                new KafkaStreamSources(
                    null,
                    null,
                    KafkaNamespace.DEFAULT,
                    List.of(new KafkaSettings.StreamSource("taps", null, null)),
                    false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("eventide.state.store=redis");
  }

  @Test
  void everyReaderOfTheStreamGetsTheTopicsEvents() throws Exception {
    try (Admin admin = admin()) {
      // The stream's consumer, running since start-up, may have had the broker create it already.
      admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(TopicExistsException.class);
    }
    define(
        "taps-count",
        """
        {"window": {"type": "fixed", "size": "1m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating", "aggregate": {"type": "count"}, "stream": "taps"}
        """);
    define(
        "taps-sum",
        """
        {"window": {"type": "fixed", "size": "1h"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating", "aggregate": {"type": "sum"}, "stream": "taps"}
        """);
    try (KafkaProducer<String, byte[]> producer = producer()) {
      for (int i = 1; i <= 10; i++) {
        String key = i % 2 == 0 ? "a" : "b";
        // In time order: the records may reach the stream in more than one poll, and a minute's
        // window closes once a poll has carried the watermark past it.
        producer.send(
            new ProducerRecord<>(
                TOPIC, key, bytes(event(key, "12:0" + (i - 1) / 4 + ":00", i, "t" + i))));
      }
      producer.send(new ProducerRecord<>(TOPIC, "bad", bytes("{not json")));
    }
    // a: 2 + 4 + ... + 10 = 30 in one hour; b: 1 + 3 + ... + 9 = 25.
    await().atMost(PATIENCE).until(() -> totals("taps-sum").equals(Map.of("a", 30.0, "b", 25.0)));
    // Five events of each key, counted per minute.
    await().atMost(PATIENCE).until(() -> totals("taps-count").equals(Map.of("a", 5.0, "b", 5.0)));
    try (Admin admin = admin()) {
      await().atMost(PATIENCE).until(() -> committed(admin, GROUP) == 11);
    }
    for (String pipeline : List.of("taps-count", "taps-sum")) {
      assertThat(outputs.deadLetters(pipeline, 10).block())
          .singleElement()
          .satisfies(d -> assertThat(d.get("reason").asString()).isEqualTo("invalid"));
    }
  }

  @Test
  void aStreamsTopicAndGroupStayInItsNamespace() {
    KafkaNamespace namespace = KafkaNamespace.DEFAULT;
    assertThat(
            KafkaStreamSources.resolve(
                namespace, List.of(new KafkaSettings.StreamSource("taps", null, null))))
        .containsExactly(new KafkaStreamSources.Resolved("taps", TOPIC, GROUP));
    assertThat(
            KafkaStreamSources.resolve(
                namespace, List.of(new KafkaSettings.StreamSource("taps", "shop.taps", "shop"))))
        .containsExactly(new KafkaStreamSources.Resolved("taps", "shop.taps", "shop"));
    assertThatThrownBy(
            () ->
                KafkaStreamSources.resolve(
                    namespace,
                    List.of(
                        new KafkaSettings.StreamSource(
                            "taps", "eventide.orders.in", "eventide._stream.other.source"),
                        new KafkaSettings.StreamSource("taps", null, null))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("eventide.kafka.streams[0].topic")
        .hasMessageContaining("eventide.kafka.streams[0].group")
        .hasMessageContaining("eventide.kafka.streams[1].stream");
  }
}
