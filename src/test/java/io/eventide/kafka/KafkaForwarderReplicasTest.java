package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.state.ChildService;
import io.eventide.state.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Replicas of the Redis and Kafka service as child JVMs on one key prefix, one pane forwarder
 * active per pipeline among them: when the replica that forwards is killed another takes the lease
 * over and sends from the checkpoint, so an upserting consumer ends exact; and a replica frozen
 * past its lease cannot move the checkpoint when it wakes.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class KafkaForwarderReplicasTest {
  private static final int KEYS = 5;
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  private static final String RUNNING_COUNT_TO_KAFKA = FaultSuiteTest.RUNNING_COUNT_TO_KAFKA;

  private final String prefix = TestRedis.newKeyPrefix();
  private final List<ChildService> replicas = new ArrayList<>();

  @AfterEach
  void stopReplicas() throws Exception {
    for (ChildService r : replicas) {
      r.close();
    }
    TestRedis.delete(prefix);
  }

  private ChildService replica() throws Exception {
    ChildService r =
        ChildService.start(
            TestRedis.url(),
            prefix,
            "--eventide.kafka.enabled=true",
            "--spring.kafka.bootstrap-servers=" + KafkaTestBroker.get().bootstrapServers(),
            "--eventide.kafka.retry-backoff=200ms",
            "--eventide.kafka.forwarder.lease-time=2s",
            "--eventide.kafka.forwarder.renew-interval=400ms",
            "--eventide.kafka.forwarder.poll-interval=200ms",
            "--logging.level.org.apache.kafka=warn",
            "--logging.level.kafka=warn");
    replicas.add(r);
    return r;
  }

  @Test
  void whenTheForwardingReplicaIsKilledAnotherTakesOverAndNothingIsLost() throws Exception {
    String pipeline = "relay";
    int batches = 30;
    ChildService first = replica();
    ChildService second = replica();
    first.api.define(pipeline, RUNNING_COUNT_TO_KAFKA);
    await().atMost(PATIENCE).until(() -> lease(first, pipeline) + lease(second, pipeline) == 1);
    ChildService holder = lease(first, pipeline) == 1 ? first : second;
    ChildService other = holder == first ? second : first;

    // Events go to one replica at a time (in this Redis mode two would take the pipeline from
    // each other): to the holder until it dies, then to the other.
    AtomicInteger acknowledged = new AtomicInteger();
    AtomicReference<LiveApi> target = new AtomicReference<>(holder.api);
    Thread producing =
        new Thread(
            () -> {
              for (int b = 0; b < batches; b++) {
                sendUntilAcknowledged(target::get, pipeline, b);
                acknowledged.incrementAndGet();
              }
            });
    producing.start();
    await().atMost(PATIENCE).until(() -> acknowledged.get() >= 12);
    holder.kill();
    target.set(other.api);
    producing.join(TimeUnit.SECONDS.toMillis(PATIENCE.toSeconds()));
    assertThat(acknowledged.get()).isEqualTo(batches);

    Map<String, Long> results = results(other.api, pipeline);
    assertThat(results.values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo((long) batches * KEYS);
    Upserts kafka = Upserts.read("eventide." + pipeline + ".panes", results);
    assertThat(kafka.totals()).isEqualTo(results);
    assertThat(kafka.indexes()).hasSize(KEYS);
    kafka
        .indexes()
        .forEach(
            (window, seen) ->
                assertThat(new TreeSet<>(seen))
                    .as("pane indexes of %s", window)
                    .containsExactlyElementsOf(IntStream.range(0, batches).boxed().toList()));
    assertThat(lease(other, pipeline)).isEqualTo(1);
    assertThat(other.metric(series("eventide_kafka_forwarder_forwarded_total", pipeline)))
        .as("the survivor forwarded what the dead replica had not")
        .isPositive();
  }

  @Test
  void aHolderFrozenPastItsLeaseCannotMoveTheCheckpointWhenItWakes() throws Exception {
    String pipeline = "frozen";
    KafkaTestBroker broker = KafkaTestBroker.get();
    ChildService first = replica();
    first.api.define(pipeline, RUNNING_COUNT_TO_KAFKA);
    sendUntilAcknowledged(() -> first.api, pipeline, 0);
    await().atMost(PATIENCE).until(() -> lastLogged(pipeline).equals(checkpoint(pipeline)));

    // With the broker away, the holder reads the next batch's panes and waits for their acks.
    ChildService second;
    broker.stop();
    try {
      sendUntilAcknowledged(() -> first.api, pipeline, 1);
      await()
          .atMost(PATIENCE)
          .until(() -> first.metric(series("eventide_kafka_forwarder_lag_seconds", pipeline)) > 0);
      first.freeze();
      second = replica();
      await().atMost(PATIENCE).until(() -> lease(second, pipeline) == 1);
      sendUntilAcknowledged(() -> second.api, pipeline, 2);
    } finally {
      broker.start();
    }
    await().atMost(PATIENCE).until(() -> lastLogged(pipeline).equals(checkpoint(pipeline)));
    String moved = checkpoint(pipeline);

    // Awake, the old holder gets its acks and writes its checkpoint, behind the moved one:
    // refused. The checkpoint may still go forward, since entries logged after the move (a bare
    // progress entry when the woken replica's source progress commits) are the new holder's to
    // forward.
    first.thaw();
    await()
        .atMost(PATIENCE)
        .until(() -> first.metric(series("eventide_kafka_forwarder_fenced_total", pipeline)) >= 1);
    assertThat(StreamId.parse(checkpoint(pipeline)))
        .as("the checkpoint after the old holder woke, against %s", moved)
        .isGreaterThanOrEqualTo(StreamId.parse(moved));
    assertThat(lease(second, pipeline)).isEqualTo(1);
    assertThat(lease(first, pipeline)).isZero();
    Map<String, Long> results = results(second.api, pipeline);
    assertThat(Upserts.read("eventide." + pipeline + ".panes", results).totals())
        .isEqualTo(results);
  }

  /** A Redis stream entry id, ordered as Redis orders them. */
  private record StreamId(long millis, long sequence) implements Comparable<StreamId> {
    static StreamId parse(String id) {
      int dash = id.indexOf('-');
      return new StreamId(
          Long.parseLong(id.substring(0, dash)), Long.parseLong(id.substring(dash + 1)));
    }

    @Override
    public int compareTo(StreamId other) {
      int byMillis = Long.compare(millis, other.millis);
      return byMillis != 0 ? byMillis : Long.compare(sequence, other.sequence);
    }
  }

  private double lease(ChildService replica, String pipeline) throws Exception {
    return replica.metric(series("eventide_kafka_forwarder_lease", pipeline));
  }

  private static String series(String name, String pipeline) {
    return name + "{pipeline=\"" + pipeline + "\"}";
  }

  private String checkpoint(String pipeline) {
    String position =
        TestRedis.call(
            redis -> redis.hget(prefix + ":{" + pipeline + "}:forwarder:checkpoint", "position"));
    return position == null ? "" : position;
  }

  private String lastLogged(String pipeline) {
    return TestRedis.call(
        redis ->
            redis
                .xrevrange(
                    prefix + ":{" + pipeline + "}:panes",
                    io.lettuce.core.Range.create("-", "+"),
                    io.lettuce.core.Limit.from(1))
                .get(0)
                .getId());
  }

  /**
   * Posts batch {@code b} (one event per key, with ids) to whichever replica {@code api} names at
   * the time, until one acknowledges it.
   */
  private static void sendUntilAcknowledged(Supplier<LiveApi> api, String pipeline, int b) {
    List<String> events = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      events.add(
          "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:%02d:00Z\",\"value\":1,\"id\":\"b%d-k%d\"}"
              .formatted(k, b % 60, b, k));
    }
    long until = System.nanoTime() + PATIENCE.toNanos();
    while (System.nanoTime() < until) {
      try {
        LiveApi.Reply reply =
            api.get()
                .postEvents(
                    pipeline, MediaType.APPLICATION_JSON, "[" + String.join(",", events) + "]");
        if (reply.status() == 202) {
          return;
        }
      } catch (RuntimeException noAnswer) {
        // Down or being killed: try again, as a producer that can afford to.
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    throw new AssertionError("batch " + b + " of " + pipeline + " was never acknowledged");
  }

  /** Each key's count over the pipeline's results, one window per key. */
  private static Map<String, Long> results(LiveApi api, String pipeline) {
    Map<String, Long> out = new HashMap<>();
    for (JsonNode r : api.get("/pipelines/" + pipeline + "/results").get("results")) {
      out.merge(r.get("key").asString(), r.get("value").asLong(), Long::sum);
    }
    return out;
  }

  /**
   * A consumer that upserts each window's record with the highest pane index, as the sink's
   * changelog mode asks, and remembers every index it saw per window (by record key), in arrival
   * order.
   */
  static record Upserts(Map<String, Long> totals, Map<String, List<Integer>> indexes) {

    /** Reads the topic from the start until the upserted totals are {@code expected}. */
    static Upserts read(String topic, Map<String, Long> expected) {
      Map<String, Integer> best = new HashMap<>();
      Map<String, Long> totals = new HashMap<>();
      Map<String, List<Integer>> indexes = new HashMap<>();
      long until = System.nanoTime() + PATIENCE.toNanos();
      try (KafkaConsumer<String, byte[]> consumer = TopicReader.fromStart(topic, until)) {
        while (!totals.equals(expected) && System.nanoTime() < until) {
          for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            JsonNode pane = KafkaIntegrationTest.value(r);
            int index =
                Integer.parseInt(KafkaIntegrationTest.header(r, KafkaPaneRecords.PANE_INDEX));
            indexes.computeIfAbsent(r.key(), w -> new ArrayList<>()).add(index);
            if (best.getOrDefault(r.key(), -1) < index) {
              best.put(r.key(), index);
              totals.put(pane.get("key").asString(), pane.get("value").asLong());
            }
          }
        }
      }
      return new Upserts(totals, indexes);
    }
  }
}
