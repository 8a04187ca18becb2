package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * A commit whose reply is lost: the client's command timeout passes while Redis is frozen. The
 * answer must say what Redis did with the commit: applied (202 with its counts, and its panes
 * published with no gap in pane indexes) or not applied (503, and it can never be applied later).
 * Events carry no ids, so a wrong answer shows as a count off by the batch.
 */
class AmbiguousCommitTest {
  private static final int BATCH = 10;

  @Test
  void aCommitThatRanWhileItsReplyTimedOutIsAnsweredAsApplied() throws Exception {
    try (ServiceOnOwnRedis service = start()) {
      StoppableRedis redis = service.redis;
      LiveApi api = service.api;
      api.define("frozen", TestRedis.RUNNING_COUNT);
      try (PaneStream panes = api.panes("frozen", "")) {
        assertThat(send(api, "frozen", 0).status()).isEqualTo(202);

        redis.freeze();
        CompletableFuture<LiveApi.Reply> inFlight =
            CompletableFuture.supplyAsync(() -> send(api, "frozen", 1));
        // Three command timeouts pass while Redis holds the commit unread in its socket.
        Thread.sleep(1500);
        redis.thaw();
        LiveApi.Reply reply = inFlight.get();

        assertThat(reply.status()).as("answer %s", reply.body()).isEqualTo(202);
        assertThat(reply.body().get("accepted").asLong()).isEqualTo(BATCH);
        assertThat(send(api, "frozen", 2).status()).isEqualTo(202);
        await()
            .atMost(Duration.ofSeconds(10))
            .untilAsserted(() -> assertThat(total(api, "frozen")).isEqualTo(3 * BATCH));
        assertThat(paneIndexesPerKey(panes, 3 * BATCH)).containsOnly(List.of(0, 1, 2));
      }
    }
  }

  @Test
  void aCommitThatNeverRanIsGivenUpAndAnsweredAsNotApplied() throws Exception {
    try (ServiceOnOwnRedis service = start()) {
      StoppableRedis redis = service.redis;
      LiveApi api = service.api;
      api.define("paused", TestRedis.RUNNING_COUNT);
      assertThat(send(api, "paused", 0).status()).isEqualTo(202);

      // Writes wait; then the connection that carries the commit is killed, so Redis never runs it.
      assertThat(redis.cli("CLIENT", "PAUSE", "20000", "WRITE")).isEqualTo("OK");
      CompletableFuture<LiveApi.Reply> inFlight =
          CompletableFuture.supplyAsync(() -> send(api, "paused", 1));
      Thread.sleep(1500);
      redis.cli("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
      Thread.sleep(500);
      assertThat(redis.cli("CLIENT", "UNPAUSE")).isEqualTo("OK");
      LiveApi.Reply reply = inFlight.get();

      reply.expectProblem(503);
      assertThat(reply.body().get("detail").asString()).contains("nothing of this request");
      // The pipeline is rebuilt from Redis; the same events sent again count once.
      await().atMost(Duration.ofSeconds(30)).until(() -> send(api, "paused", 1).status() == 202);
      assertThat(total(api, "paused")).isEqualTo(2 * BATCH);
    }
  }

  private static ServiceOnOwnRedis start() throws Exception {
    return ServiceOnOwnRedis.start(
        "--spring.data.redis.timeout=500ms",
        "--eventide.state.redis.commit-resolve-timeout=30s",
        "--eventide.runtime.shards=2");
  }

  /** Batch {@code n}: one event for each of ten keys, without ids. */
  private static LiveApi.Reply send(LiveApi api, String pipeline, int n) {
    List<String> events = new ArrayList<>();
    for (int k = 0; k < BATCH; k++) {
      events.add(LiveApi.event("k" + k, "2026-01-01T10:%02d:00Z".formatted(n), 1));
    }
    return api.postEvents(
        pipeline, MediaType.APPLICATION_JSON, "[" + String.join(",", events) + "]");
  }

  private static long total(LiveApi api, String pipeline) {
    long sum = 0;
    for (JsonNode r : api.get("/pipelines/" + pipeline + "/results").get("results")) {
      sum += r.get("value").asLong();
    }
    return sum;
  }

  /** The pane indexes each key's window showed on the stream, in the order they came. */
  private static Collection<List<Integer>> paneIndexesPerKey(PaneStream panes, int count) {
    Map<String, List<Integer>> byKey = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      JsonNode pane = panes.nextPane();
      byKey
          .computeIfAbsent(pane.get("key").asString(), k -> new ArrayList<>())
          .add(pane.at("/pane/index").asInt());
    }
    return byKey.values();
  }
}
