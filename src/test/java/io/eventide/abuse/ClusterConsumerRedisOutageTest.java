package io.eventide.abuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.cluster.ClusterReplicas;
import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import io.eventide.state.StoppableRedis;
import io.eventide.state.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;

/**
 * The partitions' consumer under a Redis outage (issue 34, likely list, in the fault-and-abuse
 * suite): two cluster replicas on a Redis of the test's own, a producer posting batches with event
 * ids to both with {@code ?wait=applied}, and Redis stopped for {@link #OUTAGE} then started again.
 * While it is away liveness stays UP and readiness goes DOWN, as docs/operations.md says; once it
 * is back the replicas apply posts again, and in the end every batch (each resent until
 * acknowledged, whatever the answer said) is counted exactly once. The time from Redis's return to
 * the first post applied again is printed.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterConsumerRedisOutageTest {
  private static final String PIPELINE = "outage";
  private static final int BATCHES = AbuseScale.of(60);
  private static final int KEYS = 10;
  private static final int OUTAGE_AT = 15;
  private static final Duration OUTAGE = Duration.ofSeconds(4);
  private static final Duration PATIENCE = Duration.ofMinutes(2);
  private static final String RESTARTS = "eventide_cluster_consumer_restarts_total";

  @Test
  void theConsumerRecoversAndNothingAcknowledgedIsLostOrCountedTwice() throws Exception {
    try (StoppableRedis redis = StoppableRedis.start();
        ClusterReplicas replicas =
            new ClusterReplicas(redis.url(), 2, ClusterReplicas.QUICK_TO_GIVE_UP).startAll()) {
      replicas.api(0).define(PIPELINE, TestRedis.RUNNING_COUNT);
      Producer producer = new Producer(replicas);
      CompletableFuture<Void> producing = CompletableFuture.runAsync(producer);
      await().atMost(PATIENCE).until(() -> producer.acknowledged.get() >= OUTAGE_AT);
      assertThat(producer.appliedAnswers).as("posts applied before the outage").isNotEmpty();

      double restartsBefore = replicas.metricSum(RESTARTS);
      redis.stop();
      List<Integer> liveness = new ArrayList<>();
      List<Integer> readiness = new ArrayList<>();
      long outageEnds = System.nanoTime() + OUTAGE.toNanos();
      while (System.nanoTime() < outageEnds) {
        for (int i = 0; i < replicas.count(); i++) {
          liveness.add(replicas.status(i, "/actuator/health/liveness"));
          readiness.add(replicas.status(i, "/actuator/health/readiness"));
        }
        Thread.sleep(250);
      }
      redis.resume();
      long resumed = System.nanoTime();

      await()
          .atMost(PATIENCE)
          .pollInterval(Duration.ofMillis(50))
          .until(() -> producer.firstAppliedAnswerAfter(resumed) > 0);
      double recoverySeconds = (producer.firstAppliedAnswerAfter(resumed) - resumed) / 1e9;
      producing.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
      for (int i = 0; i < replicas.count(); i++) {
        replicas.awaitReady(i);
      }
      replicas.awaitResultSums(PIPELINE, KEYS, BATCHES, PATIENCE);
      double restarted = replicas.metricSum(RESTARTS) - restartsBefore;

      System.out.printf(
          "abuse figure: cluster consumer, Redis stopped %d s under load (%d batches of %d"
              + " events, 2 replicas): first post applied again %.1f s after Redis returned;"
              + " consumer sessions restarted %.0f; posts sent again %d (refused %d, outcome"
              + " unknown %d); liveness during the outage %s; readiness %s%n",
          OUTAGE.toSeconds(),
          BATCHES,
          KEYS,
          recoverySeconds,
          restarted,
          producer.resent.get(),
          producer.refused.get(),
          producer.unknown.get(),
          tally(liveness),
          tally(readiness));
      assertThat(liveness).as("liveness never depends on Redis").containsOnly(200);
      assertThat(readiness).as("readiness while Redis does not answer").contains(503);
    }
  }

  private static Map<Integer, Long> tally(List<Integer> statuses) {
    Map<Integer, Long> out = new TreeMap<>();
    statuses.forEach(s -> out.merge(s, 1L, Long::sum));
    return out;
  }

  /**
   * Sends {@link #BATCHES} batches of one event per key, with ids, to the replicas in turn; a batch
   * is sent again, with the same ids, until it is acknowledged, whatever the answer: nothing
   * logged, outcome unknown or no answer at all.
   */
  private static final class Producer implements Runnable {
    private final ClusterReplicas replicas;
    final AtomicInteger acknowledged = new AtomicInteger();
    final AtomicInteger resent = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();
    final AtomicInteger unknown = new AtomicInteger();

    /** When (nanoTime) each answer saying its partitions' owners applied the post came. */
    final List<Long> appliedAnswers = new CopyOnWriteArrayList<>();

    Producer(ClusterReplicas replicas) {
      this.replicas = replicas;
    }

    /** The first answer after {@code nanoTime} saying its post was applied; 0 while none came. */
    long firstAppliedAnswerAfter(long nanoTime) {
      return appliedAnswers.stream().filter(t -> t > nanoTime).findFirst().orElse(0L);
    }

    @Override
    public void run() {
      try {
        for (int b = 0; b < BATCHES; b++) {
          send(b);
          acknowledged.incrementAndGet();
          Thread.sleep(50);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    private void send(int b) throws InterruptedException {
      long until = System.nanoTime() + PATIENCE.toNanos();
      for (int attempt = 0; System.nanoTime() < until; attempt++) {
        LiveApi api = replicas.api((b + attempt) % replicas.count());
        LiveApi.Reply reply;
        try {
          reply =
              api.send(
                  HttpMethod.POST,
                  "/pipelines/" + PIPELINE + "/events?wait=applied",
                  MediaType.APPLICATION_JSON,
                  batch(b));
        } catch (RuntimeException noAnswer) {
          reply = null;
        }
        if (reply != null && reply.status() == 202) {
          if (reply.body().get("applied").asBoolean()) {
            appliedAnswers.add(System.nanoTime());
          }
          return;
        }
        if (reply == null || reply.body().has("outcome")) {
          unknown.incrementAndGet();
        } else {
          refused.incrementAndGet();
        }
        resent.incrementAndGet();
        Thread.sleep(200);
      }
      throw new AssertionError("batch " + b + " was never acknowledged");
    }

    private static String batch(int b) {
      List<String> events = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        events.add(
            "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:%02d:00Z\",\"id\":\"b%d-k%d\"}"
                .formatted(k, b % 60, b, k));
      }
      return "[" + String.join(",", events) + "]";
    }
  }
}
