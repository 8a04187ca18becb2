package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * A strict post over Redis: refused whole, nothing of it in Redis (no window, no dead letter, after
 * a restart too); a lenient one names what it refused and commits the rest.
 */
class RedisStrictPostTest {
  private static final String SUMS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}";

  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  @Test
  void aStrictPostWithAnUnreadableEventLeavesNothingInRedis() {
    String body =
        array(
            event("a", "2026-01-01T10:00:10Z", 1),
            "{\"timestamp\": \"2026-01-01T10:00:20Z\", \"value\": 2}",
            event("b", "2026-01-01T10:00:30Z", 3));
    ConfigurableApplicationContext service = RedisEventide.start(prefix);
    try {
      LiveApi api = RedisEventide.api(service);
      api.define("strict", SUMS);
      JsonNode problem =
          api.send(
                  HttpMethod.POST,
                  "/pipelines/strict/events?strict=true",
                  MediaType.APPLICATION_JSON,
                  body)
              .expectProblem(422)
              .body();
      assertThat(problem.at("/rejected/0/index").asInt()).isEqualTo(1);
      assertThat(problem.at("/rejected/0/path").asString()).isEqualTo("/key");

      service.close();
      service = RedisEventide.start(prefix);
      api = RedisEventide.api(service);
      assertThat(api.get("/pipelines/strict/windows").get("windows")).isEmpty();
      assertThat(api.get("/pipelines/strict/dead-letters").get("deadLetters")).isEmpty();

      JsonNode lenient = api.events("strict", body);
      assertThat(lenient.get("accepted").asInt()).isEqualTo(2);
      assertThat(lenient.at("/rejected/0/index").asInt()).isEqualTo(1);
      assertThat(api.get("/pipelines/strict/windows").get("windows")).hasSize(2);
      assertThat(api.get("/pipelines/strict/dead-letters").get("deadLetters")).hasSize(1);
    } finally {
      service.close();
    }
  }
}
