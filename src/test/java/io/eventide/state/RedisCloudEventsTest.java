package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.BinaryCloudEvent;
import io.eventide.runtime.LiveApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * A post of one CloudEvent whose required attributes are wrong, over Redis: a 400, and nothing of
 * it in Redis (no result, no dead letter, no watermark source), as in memory.
 */
class RedisCloudEventsTest {
  private static final String SALES =
      """
      {"window": {"type": "fixed", "size": "1h"}, "aggregate": {"type": "sum"},
       "event": {"key": "/region", "value": "/amount"}}
      """;

  private static final String ROUTE = "/pipelines/ce-redis/events?wait=applied";

  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  @Test
  void aWrongCloudEventLeavesNothingInRedis() {
    try (ConfigurableApplicationContext service = RedisEventide.start(prefix)) {
      LiveApi api = RedisEventide.api(service);
      api.define("ce-redis", SALES);
      JsonNode structured =
          api.send(
                  HttpMethod.POST,
                  ROUTE,
                  MediaType.parseMediaType("application/cloudevents+json"),
                  """
                  {"specversion": "1.0", "id": "r1", "source": "/shops/berlin",
                   "time": "2026-01-01T10:00:00Z", "data": {"region": "eu", "amount": 1}}
                  """)
              .expectProblem(400)
              .body();
      assertThat(structured.get("detail").asString()).isEqualTo("/type is required");
      JsonNode binary =
          api.send(
                  HttpMethod.POST,
                  ROUTE,
                  MediaType.APPLICATION_JSON,
                  "{\"region\": \"eu\", \"amount\": 2}",
                  BinaryCloudEvent.headers("r2", "/shops/berlin", "2026-01-01T10:00:01Z")
                      .andThen(h -> h.remove("ce-id")))
              .expectProblem(400)
              .body();
      assertThat(binary.get("detail").asString()).isEqualTo("ce-id is required");

      assertThat(api.get("/pipelines/ce-redis/results").get("results")).isEmpty();
      assertThat(api.get("/pipelines/ce-redis/dead-letters").get("deadLetters")).isEmpty();
      assertThat(api.get("/pipelines/ce-redis/watermark").get("sources")).isEmpty();
    }
  }
}
