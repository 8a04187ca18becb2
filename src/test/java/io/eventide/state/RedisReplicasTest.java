package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Two replicas over one Redis, in this JVM: what one of them does to a definition holds for the
 * other, which may not be running the pipeline, or may still be running it after it was deleted.
 */
class RedisReplicasTest {
  private final String prefix = "test-" + UUID.randomUUID();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  private ConfigurableApplicationContext start() {
    return RedisEventide.start(prefix, "--eventide.runtime.tick=20ms");
  }

  private static LiveApi api(ConfigurableApplicationContext app) {
    return RedisEventide.api(app);
  }

  @Test
  void aChangeWithoutResetIsRefusedWhereTheStateIsKeptThoughThisReplicaDoesNotRunIt() {
    try (ConfigurableApplicationContext a = start();
        ConfigurableApplicationContext b = start()) {
      api(a).define("counts", TestRedis.RUNNING_COUNT);
      api(a).events("counts", array(event("k", "2026-01-01T10:00:00Z", 1)));

      LiveApi.Reply refused = api(b).put("counts", TestRedis.RUNNING_COUNT.replace("1h", "1m"));
      refused.expectProblem(409);
      assertThat(refused.body().get("detail").asString()).contains("window");

      assertThat(api(a).get("/pipelines/counts/results").get("results")).hasSize(1);
    }
  }

  @Test
  void aPipelineDeletedByAnotherReplicaStaysDeletedAndARecreatedOneStartsEmpty() {
    try (ConfigurableApplicationContext a = start();
        ConfigurableApplicationContext b = start()) {
      api(a).define("totals", TestRedis.RUNNING_COUNT);
      api(b).events("totals", array(event("k", "2026-01-01T10:00:00Z", 1)));

      api(a).delete("totals").expect(204);

      // The replica that still runs it notices at its next commit, and never brings it back.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  api(b)
                          .postEvents(
                              "totals",
                              MediaType.APPLICATION_JSON,
                              array(event("k", "2026-01-01T10:00:01Z", 1)))
                          .status()
                      == 404);
      for (int i = 0; i < 10; i++) {
        api(b)
            .postEvents(
                "totals", MediaType.APPLICATION_JSON, array(event("k", "2026-01-01T10:00:02Z", 1)))
            .expectProblem(404);
      }
      assertThat(TestRedis.keys(prefix + ":{totals}:*")).isEmpty();

      api(a).define("totals", TestRedis.RUNNING_COUNT);
      api(a).events("totals", array(event("k", "2026-01-01T10:00:03Z", 1)));
      JsonNode result = api(a).get("/pipelines/totals/results").get("results").get(0);
      assertThat(result.get("value").asLong()).isEqualTo(1);
    }
  }

  /**
   * The replica still running a pipeline another one deleted learns of it from its first post's
   * commit, and answers that post as any later one: 404, not 503 "state store unavailable", which
   * would tell the producer to send again to a pipeline that is gone.
   */
  @Test
  void theFirstPostToAPipelineDeletedByAnotherReplicaIs404() {
    try (ConfigurableApplicationContext a = start();
        ConfigurableApplicationContext b = start()) {
      api(a).define("totals", TestRedis.RUNNING_COUNT);
      api(b).events("totals", array(event("k", "2026-01-01T10:00:00Z", 1)));

      api(a).delete("totals").expect(204);

      // Its failed runtime is not opened again by the beat either, not even until the open is
      // undone: watched from before the post, on one connection, asked in a tight loop.
      long reopened =
          TestRedis.call(
              redis -> {
                LiveApi.Reply first =
                    api(b)
                        .postEvents(
                            "totals",
                            MediaType.APPLICATION_JSON,
                            array(event("k", "2026-01-01T10:00:01Z", 1)));
                first.expectProblem(404);
                assertThat(first.body().get("detail").asString()).contains("totals");
                long seen = 0;
                long until = System.nanoTime() + Duration.ofSeconds(1).toNanos();
                while (System.nanoTime() < until) {
                  seen += redis.exists(prefix + ":{totals}:meta");
                }
                return seen;
              });
      assertThat(reopened).isZero();
      api(b)
          .send(
              HttpMethod.POST,
              "/pipelines/totals/watermark",
              MediaType.APPLICATION_JSON,
              "{\"watermark\": \"2026-01-01T10:00:02Z\"}")
          .expectProblem(404);
      assertThat(TestRedis.keys(prefix + ":{totals}:*")).isEmpty();
    }
  }

  @Test
  void aReplicaThatRanTheDefinitionBeforeAResetComputesWithTheStoredOneAfterIt() throws Exception {
    String sum =
        TestRedis.RUNNING_COUNT.replace(
            "\"aggregate\": {\"type\": \"count\"}", "\"aggregate\": {\"type\": \"sum\"}");
    try (ConfigurableApplicationContext a = start();
        ConfigurableApplicationContext b = start()) {
      api(a).define("totals", TestRedis.RUNNING_COUNT);
      api(a).events("totals", array(event("k", "2026-01-01T10:00:00Z", 1)));

      api(b).put("totals?reset=true", sum).expect(200);

      // Replica a learns of the reset when its next commit is fenced, and its beat moves on.
      api(a)
          .postEvents(
              "totals", MediaType.APPLICATION_JSON, array(event("k", "2026-01-01T10:00:01Z", 1)))
          .expectProblem(503);
      Thread.sleep(500);
      assertSums(api(a), "before");
    }
    try (ConfigurableApplicationContext restarted = start()) {
      assertSums(api(restarted), "after");
    }
  }

  /** A new key's event of 5 sums to 5 under the stored definition, where a count would be 1. */
  private static void assertSums(LiveApi api, String key) {
    api.events("totals", array(event(key, "2026-01-01T10:00:02Z", 5)));
    JsonNode result = api.get("/pipelines/totals/results?key=" + key).get("results").get(0);
    assertThat(result.get("value").asLong()).isEqualTo(5);
  }
}
