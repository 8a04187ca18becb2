package io.eventide.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.cluster.IngestTopic;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.Revision;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.ManualClock;
import io.eventide.engine.Time;
import io.eventide.runtime.ClusterIngest;
import io.eventide.runtime.ClusterProperties;
import io.eventide.runtime.IngestProperties;
import io.eventide.runtime.LogRecord;
import io.eventide.runtime.OwnedPartitions;
import io.eventide.runtime.PipelineInput;
import io.eventide.runtime.RunningPipelines;
import io.eventide.runtime.TestRuntimes;
import io.eventide.state.TestRedis;
import io.eventide.state.memory.InMemoryPipelineRegistry;
import io.eventide.state.redis.RedisStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import tools.jackson.databind.JsonNode;

/**
 * Cluster mode at a pipeline's start (docs/scaling.md#watermarks-across-partitions): one request's
 * events, logged to a real broker across partitions, are read back and applied one partition at a
 * time, the partition with the latest event first, as an owner's consumer may hand them over.
 * Before, a partition not read yet did not hold the pipeline's watermark back: the first partition
 * moved it past the first window, and the others' events of that window were dead-lettered as
 * expired (W1 in cluster mode lost 28 to 1 013 events a run this way).
 */
class PartitionsReadInTurnTest {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 40;

  private final String prefix = TestRedis.newKeyPrefix();
  private final LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.url());
  private final RedisStateStore store = TestRedis.store(factory, prefix);

  @AfterEach
  void close() {
    factory.destroy();
    TestRedis.delete(prefix);
  }

  /** With the request's events in one record per partition, and in a record each. */
  @ParameterizedTest(name = "batch-events {0}")
  @ValueSource(booleans = {true, false})
  void eventsOfOneRequestInPartitionsReadLaterAreNotLate(boolean batchEvents) throws Exception {
    String name = "start-" + UUID.randomUUID().toString().substring(0, 8);
    PipelineDefinition definition =
        TestRuntimes.countPerMinute(name).withRevision(new Revision("lineage", 1));
    InMemoryPipelineRegistry registry = new InMemoryPipelineRegistry();
    registry.replace(definition, null).block();
    ManualClock clock = new ManualClock(0);
    Binder settings =
        new Binder(
            new MapConfigurationPropertySource(
                Map.of(
                    "eventide.cluster.partitions",
                    Integer.toString(PARTITIONS),
                    "eventide.cluster.batch-events",
                    Boolean.toString(batchEvents))));
    ClusterProperties cluster = settings.bindOrCreate("eventide.cluster", ClusterProperties.class);
    Map<String, Object> boot =
        Map.of(
            CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, KafkaTestBroker.get().bootstrapServers());
    try (Admin admin = Admin.create(boot);
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(KafkaIngestLog.producerProperties(boot, cluster));
        KafkaIngestLog log = new KafkaIngestLog(admin, KafkaNamespace.DEFAULT, cluster, producer)) {
      ClusterIngest ingest =
          new ClusterIngest(
              log,
              store,
              clock,
              settings.bindOrCreate("eventide.ingest", IngestProperties.class),
              cluster);
      PipelineInput input = ingest.input(definition).join();
      // Every key has an event in the first minute; one has a later one, which alone would move
      // its partition's watermark past the first window.
      EventTexts batch = new EventTexts(KEYS + 1);
      for (int k = 0; k < KEYS; k++) {
        batch.add(event("k" + k, 30_000));
      }
      batch.add(event("k0", 150_000));
      input.post(batch, false, null).join();
      input.postWatermark(null, 600_000, null).join();

      Map<Integer, List<ConsumerRecord<byte[], byte[]>>> logged =
          read(KafkaNamespace.DEFAULT.eventTopic(name));
      assertThat(logged).hasSize(PARTITIONS);
      assertThat(logged.values().stream().mapToInt(List::size).sum())
          .as("records logged: one per event and watermark, or per partition and request")
          .isEqualTo(batchEvents ? 2 * PARTITIONS : KEYS + 1 + PARTITIONS);

      RunningPipelines runtimes = TestRuntimes.of(store, registry, clock, null);
      runtimes.start();
      OwnedPartitions owner = new OwnedPartitions(runtimes, store, store, registry);
      for (int p = 0; p < PARTITIONS; p++) {
        owner.open(new OwnedPartitions.Id(name, p), PARTITIONS).join();
      }
      // The partition of the latest event first, each read whole, its watermark included.
      int first = partitionWith(logged, "150000");
      List<Integer> order = new ArrayList<>(logged.keySet());
      order.sort(Comparator.comparing(p -> p != first));
      for (int p : order) {
        List<LogRecord> records = new ArrayList<>();
        long[] offsets = new long[logged.get(p).size()];
        for (ConsumerRecord<byte[], byte[]> r : logged.get(p)) {
          offsets[records.size()] = r.offset();
          records.add(IngestRecords.read(r));
        }
        assertThat(owner.apply(new OwnedPartitions.Id(name, p), records, offsets).join()).isTrue();
      }

      // A partition applied before the others learns of their watermarks at its next beat.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> results(name).size() == KEYS + 1 || !deadLetters(name).isEmpty());
      assertThat(deadLetters(name)).isEmpty();
      List<JsonNode> results = results(name);
      assertThat(results).hasSize(KEYS + 1);
      assertThat(results)
          .filteredOn(
              r -> r.get("window").get("start").asString().equals("1970-01-01T00:00:00.000Z"))
          .hasSize(KEYS)
          .allSatisfy(r -> assertThat(r.get("value").asLong()).isEqualTo(1));
      for (int p = 0; p < PARTITIONS; p++) {
        owner.close(new OwnedPartitions.Id(name, p)).join();
      }
      runtimes.destroy();
    }
  }

  private List<JsonNode> results(String name) {
    return store.results(name, null, Time.MIN, Time.MAX, null, 1000).block().records();
  }

  private List<JsonNode> deadLetters(String name) {
    return store.deadLetters(name, 10).block();
  }

  private static byte[] event(String key, long timestamp) {
    return ("{\"key\": \"" + key + "\", \"timestamp\": " + timestamp + ", \"value\": 1}")
        .getBytes(UTF_8);
  }

  private static int partitionWith(
      Map<Integer, List<ConsumerRecord<byte[], byte[]>>> logged, String text) {
    return logged.entrySet().stream()
        .filter(
            e -> e.getValue().stream().anyMatch(r -> new String(r.value(), UTF_8).contains(text)))
        .findFirst()
        .orElseThrow()
        .getKey();
  }

  /** The topic's records by partition, in order, up to the end of each. */
  private static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> read(String topic) {
    Map<Integer, List<ConsumerRecord<byte[], byte[]>>> out = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> r : IngestTopic.records(topic)) {
      out.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r);
    }
    return out;
  }
}
