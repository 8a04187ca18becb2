package io.eventide.abuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import io.eventide.state.RedisEventide;
import io.eventide.state.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Readers in a loop while a producer posts (issue 34, item 3, in the fault-and-abuse suite): on
 * Redis state with 30 000 results (3000 keys of ten one-minute windows), {@link #READERS} readers
 * ask for one key's results, the results after a late {@code from}, the first few windows of a
 * snapshot stream and a page of open windows, as fast as they are answered. Every read must be a
 * bounded page, every post a 202, and the results must end counting every event posted. The
 * producer's ack latency without and with the readers is printed; it is a figure, never asserted.
 */
class ReaderLoopTest {
  private static final String PIPELINE = "reader-loop";
  private static final int KEYS = AbuseScale.of(3000);
  private static final int MINUTES = 10;
  private static final int READERS = 4;
  private static final int POSTS = AbuseScale.of(150);
  private static final int EVENTS_PER_POST = 30;
  private static final int PAGE = 50;
  private static final int TOTALS_PAGE = 500;
  private static final long BASE = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  /**
   * A running count per key and minute; the watermark trails by a year, so that no window closes
   * and every event posted counts.
   */
  private static final String COUNTS =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating",
       "aggregate": {"type": "count"},
       "watermark": {"maxOutOfOrderness": "P365D"}}
      """;

  private final Random random = new Random(34);

  @Test
  void readersInALoopGetBoundedPagesAndTheProducerLosesNothing() throws Exception {
    String prefix = TestRedis.newKeyPrefix();
    ConfigurableApplicationContext app =
        RedisEventide.start(
            prefix, "--eventide.outputs.results-per-pipeline=" + 2 * KEYS * MINUTES);
    ExecutorService readers = Executors.newFixedThreadPool(READERS);
    try {
      LiveApi api = RedisEventide.api(app);
      api.define(PIPELINE, COUNTS);
      long posted = populate(api);

      posted += produce(api, 30); // warm-up, not measured
      AbuseScale.Latencies alone = new AbuseScale.Latencies();
      posted += produce(api, alone);

      AtomicBoolean producing = new AtomicBoolean(true);
      Map<String, AbuseScale.Latencies> reads = new ConcurrentHashMap<>();
      List<Future<?>> loops = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        int seed = r;
        loops.add(readers.submit(() -> readInALoop(api, new Random(seed), producing, reads)));
      }
      AbuseScale.Latencies withReaders = new AbuseScale.Latencies();
      try {
        posted += produce(api, withReaders);
      } finally {
        producing.set(false);
      }
      for (Future<?> loop : loops) {
        loop.get(2, TimeUnit.MINUTES);
      }

      System.out.printf(
          "abuse figure: reader loop, Redis, %d results: ingest ack (%d events a post) without"
              + " readers %s; with %d readers %s; reads %s%n",
          KEYS * MINUTES,
          EVENTS_PER_POST,
          alone.summary(),
          READERS,
          withReaders.summary(),
          summaries(reads));
      assertThat(reads.keySet()).containsExactlyInAnyOrder("key", "from", "snapshot", "windows");

      long expected = posted;
      await()
          .atMost(Duration.ofMinutes(1))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () -> {
                Totals totals = totals(api);
                assertThat(totals.windows()).isEqualTo(KEYS * MINUTES);
                assertThat(totals.counted()).isEqualTo(expected);
              });
    } finally {
      readers.shutdownNow();
      app.close();
      TestRedis.delete(prefix);
    }
  }

  /** One event for every key and minute, in posts of a few thousand: 30 000 results. */
  private static long populate(LiveApi api) {
    List<String> batch = new ArrayList<>();
    long posted = 0;
    for (int k = 0; k < KEYS; k++) {
      for (int m = 0; m < MINUTES; m++) {
        batch.add(event(k, m));
      }
      if (batch.size() >= 3000 || k == KEYS - 1) {
        api.events(PIPELINE, LiveApi.array(batch.toArray(String[]::new)));
        posted += batch.size();
        batch.clear();
      }
    }
    return posted;
  }

  private long produce(LiveApi api, AbuseScale.Latencies latencies) {
    return produce(api, POSTS, latencies);
  }

  private long produce(LiveApi api, int posts) {
    return produce(api, posts, new AbuseScale.Latencies());
  }

  /** Posts one after another, each of events at random keys and minutes; every one must be 202. */
  private long produce(LiveApi api, int posts, AbuseScale.Latencies latencies) {
    for (int p = 0; p < posts; p++) {
      String[] events = new String[EVENTS_PER_POST];
      for (int e = 0; e < EVENTS_PER_POST; e++) {
        events[e] = event(random.nextInt(KEYS), random.nextInt(MINUTES));
      }
      long started = System.nanoTime();
      LiveApi.Reply reply =
          api.postEvents(PIPELINE, MediaType.APPLICATION_JSON, LiveApi.array(events));
      latencies.add(started);
      reply.expect(202);
      assertThat(reply.body().get("accepted").asInt()).isEqualTo(EVENTS_PER_POST);
    }
    return (long) posts * EVENTS_PER_POST;
  }

  /** Each reader goes round the four reads until the producer is done. */
  private static void readInALoop(
      LiveApi api,
      Random random,
      AtomicBoolean producing,
      Map<String, AbuseScale.Latencies> reads) {
    long lastMinuteStart = BASE + (MINUTES - 1) * 60_000L;
    for (int round = 0; producing.get(); round++) {
      long started = System.nanoTime();
      String kind;
      switch (round % 4) {
        case 0 -> {
          kind = "key";
          String key = "k" + random.nextInt(KEYS);
          JsonNode page =
              api.get("/pipelines/" + PIPELINE + "/results?limit=5&key=" + key).get("results");
          assertThat(page.size()).isBetween(1, 5);
          page.forEach(r -> assertThat(r.get("key").asString()).isEqualTo(key));
        }
        case 1 -> {
          kind = "from";
          JsonNode page =
              api.get(
                  "/pipelines/" + PIPELINE + "/results?limit=" + PAGE + "&from=" + lastMinuteStart);
          assertThat(page.get("results")).hasSize(PAGE);
          assertThat(page.has("next")).isTrue();
        }
        case 2 -> {
          kind = "snapshot";
          // One unit of demand for the opening progress, five for the snapshot's first windows.
          try (PaneStream stream = api.panes(PIPELINE, "snapshot=true", 6)) {
            for (PaneStream.Received item : stream.next(5)) {
              assertThat(item.type()).isEqualTo("snapshot");
            }
          }
        }
        default -> {
          kind = "windows";
          JsonNode page = api.get("/pipelines/" + PIPELINE + "/windows?limit=" + PAGE);
          assertThat(page.get("windows")).hasSize(PAGE);
          assertThat(page.has("next")).isTrue();
        }
      }
      reads.computeIfAbsent(kind, k -> new AbuseScale.Latencies()).add(started);
    }
  }

  private static String summaries(Map<String, AbuseScale.Latencies> reads) {
    StringBuilder out = new StringBuilder();
    new TreeMap<>(reads)
        .forEach((kind, l) -> out.append(kind).append(' ').append(l.summary()).append("; "));
    return out.toString();
  }

  private record Totals(long windows, long counted) {}

  /**
   * Every result, read in pages (a page of the largest size is more than the client buffers): how
   * many windows and their counts' sum.
   */
  private static Totals totals(LiveApi api) {
    long windows = 0;
    long counted = 0;
    String after = null;
    do {
      JsonNode page =
          api.get(
              "/pipelines/"
                  + PIPELINE
                  + "/results?limit="
                  + TOTALS_PAGE
                  + (after == null ? "" : "&after=" + after));
      for (JsonNode r : page.get("results")) {
        windows++;
        counted += r.get("value").asLong();
      }
      after = page.has("next") ? page.get("next").asString() : null;
    } while (after != null);
    return new Totals(windows, counted);
  }

  private static String event(int key, int minute) {
    return "{\"key\":\"k"
        + key
        + "\",\"timestamp\":"
        + (BASE + minute * 60_000L + 30_000)
        + ",\"value\":1}";
  }
}
