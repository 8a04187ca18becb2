package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import io.eventide.state.StoppableRedis;
import io.eventide.state.TestRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The partitions' consumer fails and is restarted (issue 34, likely list: "the cluster consumer
 * thread can die for good"). The fault is the one the issue names: Redis away while the owner of a
 * partition reads a record of an earlier lineage of its pipeline. Such a record (one a replica
 * logged for a post that raced a reset, and that reached the log after the new lineage's owner
 * started reading) makes the owner ask the registry, synchronously on the consumer's thread,
 * whether its own lineage is still the pipeline's; with Redis away that throws, outside any
 * per-record handling, and the consumer session fails. The test writes such records by hand into
 * each partition of the ingest topic while Redis is stopped, exactly as a replica logs a post, so
 * that the fault is certain rather than left to where a race falls.
 *
 * <p>Required: the restart counter moves and the ERROR says why, liveness answers 200 throughout
 * (docs/operations.md: it never depends on Redis), and once Redis is back the replicas apply posts
 * again, with every batch posted before and after the fault counted exactly once in {@code
 * /results} and the earlier lineage's records counted not at all.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterConsumerRestartTest {
  private static final String PIPELINE = "restarted";

  /** The partitions of each ingest topic, as {@link ClusterReplicas} sets them. */
  private static final int PARTITIONS = 6;

  private static final int KEYS = 10;
  private static final int BEFORE = 5;
  private static final int AFTER = 5;
  private static final Duration PATIENCE = Duration.ofMinutes(2);

  /** Longer than the lateness sketches' write interval and a beat, with room for CI's load. */
  private static final Duration QUIET = Duration.ofSeconds(4);

  private static final String RESTARTS = "eventide_cluster_consumer_restarts_total";

  @Test
  void aSessionThatFailsIsReplacedAndProcessingResumesWithNothingLostOrCountedTwice()
      throws Exception {
    try (StoppableRedis redis = StoppableRedis.start();
        ClusterReplicas replicas =
            new ClusterReplicas(redis.url(), 2, ClusterReplicas.QUICK_TO_GIVE_UP).startAll()) {
      LiveApi api = replicas.api(0);
      api.define(PIPELINE, TestRedis.RUNNING_COUNT);
      String earlier = lineage(redis, replicas.prefix());
      // A reset: the pipeline's state starts again under a new lineage, and what was logged under
      // the first one is of an earlier lineage from now on.
      api.send(
              HttpMethod.PUT,
              "/pipelines/" + PIPELINE + "?reset=true",
              MediaType.APPLICATION_JSON,
              TestRedis.RUNNING_COUNT)
          .expect(200);
      assertThat(lineage(redis, replicas.prefix())).isNotEqualTo(earlier);
      // Each replica owns some partitions, so that each reads an earlier lineage's record below.
      replicas.awaitEveryReplicaOwnsPartitions();

      for (int b = 0; b < BEFORE; b++) {
        post(replicas, b);
      }
      replicas.awaitResultSums(PIPELINE, KEYS, BEFORE, PATIENCE);
      assertThat(replicas.metricSum(RESTARTS)).isZero();
      awaitNoCommits(replicas);

      redis.stop();
      List<Integer> liveness = new ArrayList<>();
      try (KafkaProducer<byte[], byte[]> producer = producer()) {
        String topic = replicas.namespace() + PIPELINE + ".events";
        for (int p = 0; p < PARTITIONS; p++) {
          producer.send(loggedUnder(earlier, topic, p)).get();
        }
      }
      // Each replica owns some of the partitions and read such a record there: each session failed.
      await()
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () -> {
                for (int i = 0; i < replicas.count(); i++) {
                  liveness.add(replicas.status(i, "/actuator/health/liveness"));
                  assertThat(replicas.metric(i, RESTARTS)).as("restarts of replica %d", i).isOne();
                  assertThat(replicas.log(i))
                      .contains(
                          "the partitions' consumer failed; it left the group and joins again in"
                              + " 1000 ms");
                }
              });
      // The new sessions joined while the registry could not be read: they know of no partition
      // to own, and are not in the group until it answers, which readiness says.
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(10))
          .until(() -> notInTheGroup(replicas, 0) && notInTheGroup(replicas, 1));
      redis.resume();
      long resumed = System.nanoTime();

      for (int i = 0; i < replicas.count(); i++) {
        replicas.awaitReady(i);
        liveness.add(replicas.status(i, "/actuator/health/liveness"));
      }
      post(replicas, BEFORE);
      replicas.awaitResultSums(PIPELINE, KEYS, BEFORE + 1, PATIENCE);
      double recoverySeconds = (System.nanoTime() - resumed) / 1e9;
      for (int b = BEFORE + 1; b < BEFORE + AFTER; b++) {
        post(replicas, b);
      }
      replicas.awaitResultSums(PIPELINE, KEYS, BEFORE + AFTER, PATIENCE);
      System.out.printf(
          "abuse figure: cluster consumer sessions failed (Redis stopped while records of an"
              + " earlier lineage were read, 2 replicas, %d partitions): restarted %.0f; the first"
              + " batch posted after Redis returned counted on both replicas %.1f s after it"
              + " returned%n",
          PARTITIONS, replicas.metricSum(RESTARTS), recoverySeconds);
      assertThat(liveness).as("liveness never depends on Redis or the consumer").containsOnly(200);
      // The new sessions did not fail again: the records of the earlier lineage were skipped.
      for (int i = 0; i < replicas.count(); i++) {
        assertThat(replicas.metric(i, RESTARTS)).as("restarts of replica %d", i).isOne();
      }
    }
  }

  /**
   * Waits until the replicas have committed nothing for a while. The posts leave commits for later
   * beats (the lateness sketches are written at most once a second); one that meets Redis stopped
   * marks its partition's runtime failed, and a failed partition waits for the store without
   * reading the records of the earlier lineage, so its session would not fail as the test needs.
   */
  private static void awaitNoCommits(ClusterReplicas replicas) {
    String commits = "eventide_state_commit_seconds_count{pipeline=\"" + PIPELINE + "\"}";
    double[] last = {Double.NaN};
    long[] since = {System.nanoTime()};
    await()
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              double now = 0;
              for (int i = 0; i < replicas.count(); i++) {
                double c = replicas.metric(i, commits);
                // A replica that has committed nothing yet has no such series.
                now += Double.isNaN(c) ? 0 : c;
              }
              if (now != last[0]) {
                last[0] = now;
                since[0] = System.nanoTime();
              }
              return System.nanoTime() - since[0] >= QUIET.toNanos();
            });
  }

  /** Whether replica {@code i}'s readiness says that it is not in the consumer group. */
  private static boolean notInTheGroup(ClusterReplicas replicas, int i) {
    JsonNode cluster =
        replicas
            .api(i)
            .send(HttpMethod.GET, "/actuator/health/readiness", null, null)
            .body()
            .at("/components/cluster");
    return "DOWN".equals(cluster.path("status").asString())
        && "not in the group".equals(cluster.at("/details/reason").asString());
  }

  /** The lineage of the pipeline's definition, as the registry in Redis holds it. */
  private static String lineage(StoppableRedis redis, String prefix) throws Exception {
    JsonNode stored =
        JsonMapper.shared().readTree(redis.cli("HGET", prefix + ":pipelines", PIPELINE));
    String revision = stored.get("revision").asString();
    return revision.substring(0, revision.lastIndexOf('.'));
  }

  /** An event record as a replica logs it for a post, under {@code lineage}. */
  private static ProducerRecord<byte[], byte[]> loggedUnder(
      String lineage, String topic, int partition) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("eventide-kind", utf8("EVENT"));
    headers.add("eventide-lineage", utf8(lineage));
    String event =
        "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"id\":\"earlier-%d\"}"
            .formatted(partition % KEYS, partition);
    return new ProducerRecord<>(
        topic,
        partition,
        System.currentTimeMillis(),
        utf8("k" + partition % KEYS),
        utf8(event),
        headers);
  }

  private static KafkaProducer<byte[], byte[]> producer() {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            KafkaTestBroker.get().bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
            ByteArraySerializer.class));
  }

  /**
   * Posts batch {@code b} (one event per key, with ids) to the replicas in turn, with {@code
   * ?wait=applied}, sending it again with the same ids until it is acknowledged.
   */
  private static void post(ClusterReplicas replicas, int b) throws InterruptedException {
    List<String> events = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      events.add(
          "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:%02d:00Z\",\"id\":\"b%d-k%d\"}"
              .formatted(k, b % 60, b, k));
    }
    String batch = "[" + String.join(",", events) + "]";
    long until = System.nanoTime() + PATIENCE.toNanos();
    for (int attempt = 0; System.nanoTime() < until; attempt++) {
      LiveApi api = replicas.api((b + attempt) % replicas.count());
      try {
        LiveApi.Reply reply =
            api.send(
                HttpMethod.POST,
                "/pipelines/" + PIPELINE + "/events?wait=applied",
                MediaType.APPLICATION_JSON,
                batch);
        if (reply.status() == 202) {
          return;
        }
      } catch (RuntimeException noAnswer) {
        // sent again below
      }
      Thread.sleep(200);
    }
    throw new AssertionError("batch " + b + " was never acknowledged");
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
