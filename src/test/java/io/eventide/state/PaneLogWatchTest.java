package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneHub;
import io.eventide.state.redis.RedisPaneLogWatch;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;

/**
 * A pane stream on one replica is told of the panes another replica commits by its replica's watch
 * of the pane log, not by its poll: the replicas here poll once a minute, and every pane must come
 * within {@link LiveApi#TIMEOUT}. One watch serves every stream of a pipeline, ends with the last
 * of them, and survives losing Redis without costing a stream a pane or repeating one.
 */
class PaneLogWatchTest {
  private static final String PIPELINE = "counts";

  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  private ConfigurableApplicationContext replica(String redisUrl) {
    return RedisEventide.startOnRedis(
        redisUrl,
        prefix,
        "--eventide.outputs.sse-poll=60s",
        "--eventide.outputs.sse-heartbeat=100ms");
  }

  @Test
  void aStreamOnOneReplicaGetsThePanesAnotherCommitsWithoutWaitingForItsPoll() {
    try (ConfigurableApplicationContext a = replica(TestRedis.url());
        ConfigurableApplicationContext b = replica(TestRedis.url());
        PaneStream stream = defineAndWatch(a, b)) {
      Counter counter = new Counter(b, stream);
      for (int i = 0; i < 3; i++) {
        counter.countOne();
      }
      counter.assertNothingElseCame();
    }
  }

  @Test
  void aPipelineHasOneWatchWhateverItsStreamsAndItEndsWithTheLastOfThem() {
    try (ConfigurableApplicationContext a = replica(TestRedis.url())) {
      api(a).define(PIPELINE, TestRedis.RUNNING_COUNT);
      PaneHub hub = a.getBean(PaneHub.class);
      List<PaneStream> streams = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        streams.add(api(a).panes(PIPELINE, ""));
      }
      await().atMost(LiveApi.TIMEOUT).until(() -> watches(TestRedis.url()).size() == 1);

      streams.get(0).close();
      streams.get(1).close();
      await().atMost(LiveApi.TIMEOUT).until(() -> hub.subscriberCount(PIPELINE) == 1);
      assertThat(watches(TestRedis.url())).hasSize(1);

      streams.get(2).close();
      await().atMost(LiveApi.TIMEOUT).until(() -> watches(TestRedis.url()).isEmpty());
      assertThat(hub.watchedPipelines()).isEmpty();
    }
  }

  @Test
  void deletingThePipelineEndsItsStreamsAndTheirWatch() {
    try (ConfigurableApplicationContext a = replica(TestRedis.url());
        PaneStream stream = defineAndWatch(a, a)) {
      await().atMost(LiveApi.TIMEOUT).until(() -> watches(TestRedis.url()).size() == 1);

      api(a).delete(PIPELINE).expect(204);
      stream.awaitEnd();
      await().atMost(LiveApi.TIMEOUT).until(() -> watches(TestRedis.url()).isEmpty());
    }
  }

  @Test
  void aStreamMissesAndRepeatsNothingWhenTheWatchLosesItsConnectionOrRedis() throws Exception {
    try (StoppableRedis redis = StoppableRedis.start();
        ConfigurableApplicationContext a = replica(redis.url());
        ConfigurableApplicationContext b = replica(redis.url());
        PaneStream stream = defineAndWatch(a, b)) {
      Counter counter = new Counter(b, stream);
      counter.countOne();

      String killed = watches(redis.url()).get(0);
      redis.cli("CLIENT", "KILL", "ID", killed);
      await()
          .atMost(LiveApi.TIMEOUT)
          .until(() -> !watches(redis.url()).isEmpty() && !watches(redis.url()).contains(killed));
      counter.countOne();
      counter.countOne();

      redis.stop();
      redis.resume();
      counter.countOne();
      counter.countOne();
      counter.assertNothingElseCame();
    }
  }

  /** Defines the pipeline on {@code b} and opens a stream of it on {@code a}. */
  private static PaneStream defineAndWatch(
      ConfigurableApplicationContext a, ConfigurableApplicationContext b) {
    api(b).define(PIPELINE, TestRedis.RUNNING_COUNT);
    return api(a).panes(PIPELINE, "");
  }

  /**
   * Counts events of one key on one replica and expects each count as a pane on a stream, in log
   * order: a lost pane would show as a count skipped, a repeated one as a count seen twice.
   */
  private static final class Counter {
    private final LiveApi producer;
    private final PaneStream stream;
    private long count;
    private String lastId = "0";

    Counter(ConfigurableApplicationContext producer, PaneStream stream) {
      this.producer = api(producer);
      this.stream = stream;
    }

    void countOne() {
      // A post refused while Redis is away or the replica reopens the pipeline applies nothing.
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  producer
                          .postEvents(
                              PIPELINE,
                              MediaType.APPLICATION_JSON,
                              array(event("k", "2026-01-01T10:00:00Z", 1)))
                          .status()
                      == 202);
      count++;
      PaneStream.Received pane = stream.next();
      assertThat(pane.type()).isEqualTo("pane");
      assertThat(pane.data().get("value").asLong()).isEqualTo(count);
      assertThat(PaneEvent.compareIds(pane.id(), lastId)).isPositive();
      lastId = pane.id();
    }

    void assertNothingElseCame() {
      assertThat(stream.drained()).isEmpty();
    }
  }

  /** The client ids of the pane log watches of {@link #PIPELINE} under this test's prefix. */
  private List<String> watches(String redisUrl) {
    String name = RedisPaneLogWatch.CLIENT_NAME + prefix + ":{" + PIPELINE + "}:panes";
    RedisClient client = RedisClient.create(redisUrl);
    try (var connection = client.connect()) {
      List<String> ids = new ArrayList<>();
      for (String line : connection.sync().clientList().split("\n")) {
        if (line.contains(" name=" + name + " ")) {
          ids.add(line.substring("id=".length(), line.indexOf(' ')));
        }
      }
      return ids;
    } finally {
      client.shutdown();
    }
  }

  private static LiveApi api(ConfigurableApplicationContext app) {
    return RedisEventide.api(app);
  }
}
