package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Issue 34, item 9: a Redis that comes back empty is not taken in silence. Before the store's
 * marker, the next post answered 503, every later request 404 "No pipeline named…", and health
 * stayed UP with nothing logged beyond a reconnect. What the service logs is read from its output
 * (it runs in this JVM, on the console).
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisDataLossTest {
  private static final String NO_PERSISTENCE =
      "Redis keeps neither an append-only file nor RDB snapshots: a restart of Redis loses every"
          + " pipeline's state";

  private final String prefix = TestRedis.newKeyPrefix();

  @Test
  void aRedisThatComesBackEmptyTakesTheReplicaOutOfReadinessAndEveryRequestIs503(
      CapturedOutput output) throws Exception {
    try (StoppableRedis redis = StoppableRedis.start();
        ConfigurableApplicationContext app = RedisEventide.startOnRedis(redis.url(), prefix)) {
      LiveApi api = RedisEventide.api(app);
      api.define("kept", LiveApi.EVERY_BATCH_SUM);
      api.events(
          "kept",
          array(
              event("a", "2026-01-01T10:00:01Z", 1),
              event("a", "2026-01-01T10:00:02Z", 2),
              event("a", "2026-01-01T10:00:03Z", 3)));
      JsonNode ready = readiness(api).expect(200).body();
      assertThat(ready.at("/components/redisStore/status").asString()).isEqualTo("UP");
      // The test's Redis writes an append-only file.
      assertThat(ready.at("/components/redisStore/details/persistence").asString())
          .isEqualTo("aof");

      redis.restartEmpty();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  readiness(api).status() == 503
                      && readiness(api)
                          .body()
                          .at("/components/redisStore/status")
                          .asString()
                          .equals("DOWN"));
      JsonNode down = readiness(api).body();
      assertThat(down.at("/components/redisStore/details/reason").asString())
          .contains("Redis lost Eventide's data")
          .contains("the marker is gone");
      // Every request: 503 saying so, never a 404 for what the store forgot, nothing applied.
      LiveApi.Reply post =
          api.postEvents("kept", MediaType.APPLICATION_JSON, event("a", "2026-01-01T10:00:04Z", 4));
      post.expectProblem(503);
      assertThat(post.body().get("title").asString()).isEqualTo("State store lost its data");
      api.send(HttpMethod.GET, "/pipelines/kept", null, null).expectProblem(503);
      api.send(HttpMethod.GET, "/pipelines", null, null).expectProblem(503);
      api.put("kept", LiveApi.EVERY_BATCH_SUM).expectProblem(503);
      assertThat(redis.cli("HLEN", prefix + ":pipelines")).isEqualTo("0");
      assertThat(prometheus(app)).contains("eventide_state_store_lost 1.0");
      // An ERROR says so, once, naming the marker that is gone.
      assertThat(lines(output, "ERROR", lostAt(prefix))).hasSize(1);
    }
  }

  /**
   * A Redis that keeps neither an append-only file nor RDB snapshots is warned about at start and
   * shown in health before it loses anything; when it then restarts, empty, the loss is an ERROR.
   */
  @Test
  void aRedisWithoutPersistenceIsWarnedAboutAtStartAndItsLossIsAnError(CapturedOutput output)
      throws Exception {
    try (StoppableRedis redis = StoppableRedis.withoutPersistence();
        ConfigurableApplicationContext app = RedisEventide.startOnRedis(redis.url(), prefix)) {
      LiveApi api = RedisEventide.api(app);
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(lines(output, "WARN", NO_PERSISTENCE)).hasSize(1));
      JsonNode ready = readiness(api).expect(200).body();
      assertThat(ready.at("/components/redisStore/status").asString()).isEqualTo("UP");
      assertThat(ready.at("/components/redisStore/details/persistence").asString())
          .isEqualTo("none");
      api.define("kept", LiveApi.EVERY_BATCH_SUM);
      api.events("kept", event("a", "2026-01-01T10:00:01Z", 1));
      assertThat(lines(output, "ERROR", lostAt(prefix))).isEmpty();

      redis.restartEmpty();

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(lines(output, "ERROR", lostAt(prefix))).hasSize(1));
      JsonNode down = readiness(api).expect(503).body();
      assertThat(down.at("/components/redisStore/status").asString()).isEqualTo("DOWN");
      assertThat(down.at("/components/redisStore/details/persistence").asString())
          .isEqualTo("none");
      // Warned once at start, not again at the loss or at each check.
      assertThat(lines(output, "WARN", NO_PERSISTENCE)).hasSize(1);
    }
  }

  /** How the ERROR begins when the store under {@code prefix} lost its data. */
  private static String lostAt(String prefix) {
    return "Redis lost Eventide's data (the marker is gone at key '" + prefix + ":marker')";
  }

  /** The lines the service logged at {@code level} containing {@code text}. */
  private static List<String> lines(CapturedOutput output, String level, String text) {
    return output
        .getAll()
        .lines()
        .filter(line -> line.contains(" " + level + " ") && line.contains(text))
        .toList();
  }

  private static LiveApi.Reply readiness(LiveApi api) {
    return api.send(HttpMethod.GET, "/actuator/health/readiness", null, null);
  }

  private static String prometheus(ConfigurableApplicationContext app) throws Exception {
    int port = app.getEnvironment().getProperty("local.server.port", Integer.class);
    return new String(
        java.net
            .URI
            .create("http://localhost:" + port + "/actuator/prometheus")
            .toURL()
            .openStream()
            .readAllBytes(),
        java.nio.charset.StandardCharsets.UTF_8);
  }
}
