package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.IngestResult;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineRegistry;
import io.eventide.runtime.PipelineRuntime;
import io.eventide.runtime.RunningPipelines;
import io.eventide.state.OutputStore;
import io.eventide.state.TestRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A running Eventide with Kafka enabled against {@link KafkaTestBroker}, and a real consumer. Each
 * class gets a context of its own, closed after it: its consumers, producers and outbox sender must
 * not go on polling while the rest of the suite runs, nor outlive the broker.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.kafka.enabled=true",
      "eventide.kafka.retry-backoff=200ms",
      "eventide.kafka.grants[0].pipeline=granted",
      "eventide.kafka.grants[0].sink-topics[0]=shop.click-counts",
      "logging.level.org.apache.kafka=warn",
      "logging.level.kafka=warn",
      "logging.level.org.springframework.kafka=warn"
    })
@AutoConfigureWebTestClient(timeout = "PT30S")
@Import(DuplicateCounter.class)
@ExtendWith(KafkaTestBroker.Stopper.class)
@DirtiesContext
abstract class KafkaIntegrationTest {
  static final JsonMapper JSON = JsonMapper.shared();
  static final Duration PATIENCE = Duration.ofSeconds(30);

  @Autowired WebTestClient client;
  @Autowired RunningPipelines runtimes;
  @Autowired PipelineRegistry registry;
  @Autowired OutputStore outputs;

  @DynamicPropertySource
  static void kafka(DynamicPropertyRegistry registry) {
    registry.add("spring.kafka.bootstrap-servers", () -> KafkaTestBroker.get().bootstrapServers());
  }

  /** For a test class on the Redis store, under a key prefix of its own. */
  static void onRedis(DynamicPropertyRegistry registry, String prefix) {
    registry.add("spring.data.redis.url", TestRedis::url);
    registry.add("eventide.state.store", () -> "redis");
    registry.add("eventide.state.key-prefix", () -> prefix);
  }

  static String bootstrapServers() {
    return KafkaTestBroker.get().bootstrapServers();
  }

  /** Defines a pipeline and returns the answer's body. */
  JsonNode define(String name, String body) {
    byte[] answer =
        client
            .put()
            .uri("/pipelines/{name}", name)
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue(body)
            .exchange()
            .expectStatus()
            .is2xxSuccessful()
            .expectBody()
            .returnResult()
            .getResponseBody();
    return JSON.readTree(answer);
  }

  /** Applies one batch of events given as JSON objects. */
  IngestResult ingest(String pipeline, String... events) {
    EventTexts batch = new EventTexts(events.length);
    for (String e : events) {
      batch.add(e.getBytes(StandardCharsets.UTF_8));
    }
    return runtime(pipeline).ingest(batch).join();
  }

  /** Drains the pipeline: the watermark goes to the end of time and every window closes. */
  void drain(String pipeline) {
    runtime(pipeline).postWatermark(null, io.eventide.engine.Time.MAX, null).join();
  }

  PipelineRuntime runtime(String pipeline) {
    return runtimes.runtimeOf(registry.find(pipeline).block()).join();
  }

  static String event(String key, String time, double value, String id) {
    return "{\"key\":\""
        + key
        + "\",\"timestamp\":\"2024-05-01T"
        + time
        + "Z\",\"value\":"
        + value
        + (id == null ? "" : ",\"id\":\"" + id + "\"")
        + "}";
  }

  /**
   * Reads the topic from the beginning until {@code count} records have arrived, and for as long as
   * more keep coming within {@code quiet} ({@link TopicReader#read}).
   */
  static List<ConsumerRecord<String, byte[]>> read(String topic, int count, Duration quiet) {
    return TopicReader.read(topic, count, PATIENCE, quiet);
  }

  static List<ConsumerRecord<String, byte[]>> read(String topic, int count) {
    return read(topic, count, Duration.ofMillis(500));
  }

  static String header(ConsumerRecord<String, byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  static JsonNode value(ConsumerRecord<String, byte[]> record) {
    return JSON.readTree(record.value());
  }

  static void assertSameOrderPerKey(List<ConsumerRecord<String, byte[]>> records) {
    Map<String, Integer> lastIndex = new java.util.HashMap<>();
    for (ConsumerRecord<String, byte[]> r : records) {
      int index = Integer.parseInt(header(r, KafkaPaneRecords.PANE_INDEX));
      Integer before = lastIndex.put(r.key(), index);
      assertThat(before == null || before <= index)
          .as("pane %d of %s after pane %s", index, r.key(), before)
          .isTrue();
    }
  }

  /** Each key's values summed over the pipeline's latest results, one per window. */
  Map<String, Double> totals(String pipeline) {
    return EventTopic.totals(outputs, pipeline);
  }

  /** The offsets a consumer group has committed, over all partitions. */
  static long committed(Admin admin, String group) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.values().stream().mapToLong(o -> o == null ? 0 : o.offset()).sum();
  }

  static Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
  }

  /**
   * A producer for topics a test has just created: one request in flight per broker, because a
   * broker that has not yet applied a new partition refuses the first request, may accept the next
   * one, and then refuses the first one's retries for ever (KAFKA-15591; the in-process broker here
   * has the bug).
   */
  static KafkaProducer<String, byte[]> producer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers(),
            ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
            1,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class));
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
