package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.EventideApplication;
import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The service in a child JVM, killed with SIGKILL in the middle of ingestion and started again: no
 * acknowledged event is lost, a producer that resends what was not acknowledged (same event ids)
 * has each event counted exactly once, and no pane index appears twice in the pane log.
 */
class RedisKillTest {
  private static final int BATCHES = 120;
  private static final int BATCH_SIZE = 50;

  private final String prefix = TestRedis.newKeyPrefix();

  @Test
  void afterKillDashNineTheServiceResumesWhereItWasCommitted() throws Exception {
    int port = freePort();
    Path log = Files.createTempFile("eventide-child", ".log");
    Process child = launch(port, log);
    LiveApi api = LiveApi.on(port);
    Producer producer = new Producer(api);
    Thread sending = new Thread(producer, "producer");
    sending.setDaemon(true);
    try {
      awaitReady(api, child, log);
      api.define("killed", TestRedis.RUNNING_COUNT);
      sending.start();
      await().atMost(Duration.ofSeconds(60)).until(() -> producer.acknowledged.get() >= 30);
      child.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful anything
      child.waitFor(10, TimeUnit.SECONDS);
      int acknowledgedBeforeKill = producer.acknowledged.get();

      child = launch(port, log);
      awaitReady(api, child, log);
      sending.join(TimeUnit.MINUTES.toMillis(3));
      assertThat(sending.isAlive()).isFalse();
      assertThat(producer.acknowledged.get()).isEqualTo(BATCHES);
      assertThat(producer.failures.get())
          .as("the kill interrupted the producer (acknowledged before: %d)", acknowledgedBeforeKill)
          .isPositive();

      // Every event was acknowledged once in the end, and is counted once.
      long total = 0;
      for (JsonNode r : api.get("/pipelines/killed/results").get("results")) {
        total += r.get("value").asLong();
      }
      assertThat(total).isEqualTo((long) BATCHES * BATCH_SIZE);

      // The whole pane log, read until every key's final count: each pane index of a key
      // appears once, and its count grows with the index.
      long perKey = (long) BATCHES * BATCH_SIZE / 10;
      try (PaneStream whole = api.resume("killed", "0")) {
        java.util.Map<String, Long> lastCount = new java.util.HashMap<>();
        java.util.Map<String, Integer> lastIndex = new java.util.HashMap<>();
        while (lastCount.size() < 10 || lastCount.values().stream().anyMatch(c -> c < perKey)) {
          JsonNode pane = whole.nextPane();
          String key = pane.get("key").asString();
          int index = pane.at("/pane/index").asInt();
          long count = pane.get("value").asLong();
          assertThat(index)
              .as("pane index of %s", key)
              .isEqualTo(lastIndex.getOrDefault(key, -1) + 1);
          assertThat(count).as("count of %s", key).isGreaterThan(lastCount.getOrDefault(key, 0L));
          lastIndex.put(key, index);
          lastCount.put(key, count);
        }
      }
    } finally {
      // Whatever failed, nothing of this test goes on sending or running into the next ones.
      producer.stop();
      sending.interrupt();
      sending.join(TimeUnit.SECONDS.toMillis(30));
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
      TestRedis.delete(prefix);
      Files.deleteIfExists(log);
    }
  }

  private Process launch(int port, Path log) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx512m",
                "-cp",
                System.getProperty("java.class.path"),
                EventideApplication.class.getName(),
                "--server.port=" + port,
                "--eventide.runtime.shards=2"));
    command.addAll(TestRedis.storeArguments(TestRedis.url(), prefix));
    return new ProcessBuilder(command)
        .directory(new File(System.getProperty("user.dir")))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
  }

  private static void awaitReady(LiveApi api, Process child, Path log) {
    // A JVM starting while the build's others run can take a minute and more on two cores.
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (!child.isAlive()) {
                throw new IllegalStateException("the child JVM exited: " + Files.readString(log));
              }
              try {
                return api.send(HttpMethod.GET, "/actuator/health/readiness", null, null).status()
                    == 200;
              } catch (RuntimeException e) {
                return false;
              }
            });
  }

  /**
   * Sends {@link #BATCHES} batches with event ids, one at a time, resending a batch until it is
   * acknowledged, as a producer with at-least-once delivery does.
   */
  private static final class Producer implements Runnable {
    final AtomicInteger acknowledged = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicBoolean done = new AtomicBoolean();
    private volatile boolean stopped;
    private final LiveApi api;

    Producer(LiveApi api) {
      this.api = api;
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
          LiveApi.Reply reply = api.postEvents("killed", MediaType.APPLICATION_JSON, batch(b));
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
      done.set(true);
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
                .formatted(b, i, i % 10, b % 60, i));
      }
      return "[" + String.join(",", events) + "]";
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
