package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The service in a child JVM, killed with SIGKILL in the middle of ingestion and started again,
 * while a producer with at-least-once delivery posts batches with event ids to its pipelines in
 * turn, resending each until it is acknowledged: no acknowledged event is lost, each is counted
 * exactly once (a resent one is a duplicate by its id), and no pane index of a key appears twice in
 * a pipeline's pane log.
 */
final class KillMidIngestion {
  static final int BATCHES = 120;
  private static final int BATCH_SIZE = 50;
  private static final int KEYS = 10;

  private KillMidIngestion() {}

  /**
   * Defines {@code pipelines} on {@code child} as running counts, then posts, kills, restarts and
   * checks; the caller closes the child and deletes its keys.
   */
  static void run(ChildService child, List<String> pipelines) throws Exception {
    LiveApi api = child.api;
    for (String pipeline : pipelines) {
      api.define(pipeline, TestRedis.RUNNING_COUNT);
    }
    Producer producer = new Producer(api, pipelines);
    Thread sending = new Thread(producer, "producer");
    sending.setDaemon(true);
    try {
      sending.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> producer.acknowledged.get() >= 30);
      child.kill();
      int acknowledgedBeforeKill = producer.acknowledged.get();

      child.restart();
      sending.join(TimeUnit.MINUTES.toMillis(3));
      assertThat(sending.isAlive()).isFalse();
      assertThat(producer.acknowledged.get()).isEqualTo(BATCHES);
      assertThat(producer.failures.get())
          .as("the kill interrupted the producer (acknowledged before: %d)", acknowledgedBeforeKill)
          .isPositive();

      for (int p = 0; p < pipelines.size(); p++) {
        int turn = p;
        long batches =
            IntStream.range(0, BATCHES).filter(b -> b % pipelines.size() == turn).count();
        assertCountedOnce(api, pipelines.get(p), batches * BATCH_SIZE);
      }
    } finally {
      // Whatever failed, nothing of this test goes on sending into the next ones.
      producer.stop();
      sending.interrupt();
      sending.join(TimeUnit.SECONDS.toMillis(30));
    }
  }

  /**
   * Every one of {@code events} was counted once in {@code pipeline}'s results, and its whole pane
   * log, read until every key's final count, has each pane index of a key once, its count growing
   * with the index.
   */
  private static void assertCountedOnce(LiveApi api, String pipeline, long events) {
    long total = 0;
    for (JsonNode r : api.get("/pipelines/" + pipeline + "/results").get("results")) {
      total += r.get("value").asLong();
    }
    assertThat(total).as("events counted by %s", pipeline).isEqualTo(events);

    long perKey = events / KEYS;
    try (PaneStream whole = api.resume(pipeline, "0")) {
      Map<String, Long> lastCount = new HashMap<>();
      Map<String, Integer> lastIndex = new HashMap<>();
      while (lastCount.size() < KEYS || lastCount.values().stream().anyMatch(c -> c < perKey)) {
        JsonNode pane = whole.nextPane();
        String key = pane.get("key").asString();
        int index = pane.at("/pane/index").asInt();
        long count = pane.get("value").asLong();
        assertThat(index)
            .as("pane index of %s in %s", key, pipeline)
            .isEqualTo(lastIndex.getOrDefault(key, -1) + 1);
        assertThat(count)
            .as("count of %s in %s", key, pipeline)
            .isGreaterThan(lastCount.getOrDefault(key, 0L));
        lastIndex.put(key, index);
        lastCount.put(key, count);
      }
    }
  }

  /**
   * Sends {@link #BATCHES} batches with event ids, one at a time, each to the next pipeline in
   * turn, resending a batch until it is acknowledged, as a producer with at-least-once delivery
   * does.
   */
  private static final class Producer implements Runnable {
    final AtomicInteger acknowledged = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    private volatile boolean stopped;
    private final LiveApi api;
    private final List<String> pipelines;

    Producer(LiveApi api, List<String> pipelines) {
      this.api = api;
      this.pipelines = pipelines;
    }

    @Override
    public void run() {
      ArrayDeque<Integer> pending = new ArrayDeque<>();
      for (int b = 0; b < BATCHES; b++) {
        pending.add(b);
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!stopped && !pending.isEmpty() && System.nanoTime() < deadline) {
        int b = pending.peek();
        try {
          LiveApi.Reply reply =
              api.postEvents(
                  pipelines.get(b % pipelines.size()), MediaType.APPLICATION_JSON, batch(b));
          if (reply.status() == 202) {
            pending.poll();
            acknowledged.incrementAndGet();
            continue;
          }
        } catch (RuntimeException e) {
          // The service is down: try again.
        }
        failures.incrementAndGet();
        try {
          // A real producer's back-off between retries, not a wait for anything.
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    /** Ends the sending loop, even in the middle of retrying. */
    void stop() {
      stopped = true;
    }

    private static String batch(int b) {
      List<String> events = new ArrayList<>(BATCH_SIZE);
      for (int i = 0; i < BATCH_SIZE; i++) {
        events.add(
            "{\"id\":\"b%d-%d\",\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:%02d:%02d.000Z\",\"value\":1}"
                .formatted(b, i, i % KEYS, b % 60, i));
      }
      return "[" + String.join(",", events) + "]";
    }
  }
}
