package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * A stream over a real Redis: its readers are found in the stored definitions after a restart, and
 * each reader's ids, watermark and results are its own and survive the restart.
 */
class RedisStreamTest {
  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  private static String click(String key, String time, String id) {
    return "{\"key\":\"%s\",\"timestamp\":\"2026-01-01T%sZ\",\"id\":\"%s\"}"
        .formatted(key, time, id);
  }

  private static JsonNode post(LiveApi api, String path, String body, int status) {
    return api.send(HttpMethod.POST, path, MediaType.APPLICATION_JSON, body).expect(status).body();
  }

  @Test
  void readersKeepTheirOwnStateAcrossARestart() {
    String batch =
        array(
            click("home", "10:00:10", "c1"),
            click("home", "10:00:50", "c2"),
            click("cart", "10:03:00", "c3"));
    try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
      LiveApi api = RedisEventide.api(app);
      api.define(
          "per-minute",
          """
          {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "count"},
           "allowedLateness": "1h", "stream": "clicks"}
          """);
      api.define(
          "per-session",
          """
          {"window": {"type": "session", "gap": "2m"}, "aggregate": {"type": "count"},
           "allowedLateness": "1h", "watermark": {"maxOutOfOrderness": "1m"}, "stream": "clicks"}
          """);
      JsonNode answer = post(api, "/streams/clicks/events", batch, 202);
      assertThat(answer.at("/pipelines/per-minute/accepted").asInt()).isEqualTo(3);
      assertThat(answer.at("/pipelines/per-session/accepted").asInt()).isEqualTo(3);
      assertThat(api.get("/pipelines/per-minute/watermark").get("input").asString())
          .isEqualTo("2026-01-01T10:03:00.000Z");
      assertThat(api.get("/pipelines/per-session/watermark").get("input").asString())
          .isEqualTo("2026-01-01T10:02:00.000Z");
      post(api, "/streams/clicks/watermark", "{\"watermark\": \"2026-01-01T10:06:00Z\"}", 200);
    }
    try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
      LiveApi api = RedisEventide.api(app);
      // The ids each reader applied are in Redis: the same batch again is all duplicates.
      JsonNode again = post(api, "/streams/clicks/events", batch, 202);
      assertThat(again.at("/pipelines/per-minute/duplicates").asInt()).isEqualTo(3);
      assertThat(again.at("/pipelines/per-session/duplicates").asInt()).isEqualTo(3);
      assertThat(api.get("/pipelines/per-minute/results").get("results"))
          .extracting(r -> r.get("key").asString() + "=" + r.get("value").asInt())
          .containsExactlyInAnyOrder("home=2", "cart=1");
      // home's clicks 40 s apart make one session; cart's is another.
      assertThat(api.get("/pipelines/per-session/results").get("results"))
          .extracting(r -> r.get("key").asString() + "=" + r.get("value").asInt())
          .containsExactlyInAnyOrder("home=2", "cart=1");
      assertThat(api.get("/pipelines/per-session/watermark").get("input").asString())
          .isEqualTo("2026-01-01T10:06:00.000Z");
      // Deleted, a reader no longer gets the stream's events.
      api.delete("per-session").expect(204);
      JsonNode after =
          post(api, "/streams/clicks/events", array(click("x", "10:30:00", "c4")), 202);
      assertThat(after.get("pipelines").propertyNames()).containsExactly("per-minute");
    }
  }

  @Test
  void aReaderWhoseCommitFailsIsReportedAndARetryAppliesEachEventOnce() {
    try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
      LiveApi api = RedisEventide.api(app);
      for (String name : List.of("steady", "fenced")) {
        api.define(
            name,
            """
            {"window": {"type": "fixed", "size": "1h"},
             "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
             "accumulation": "accumulating", "aggregate": {"type": "count"}, "stream": "orders"}
            """);
      }
      post(api, "/streams/orders/events", array(click("a", "10:00:00", "o1")), 202);
      RedisEventide.fence(app, "fenced");

      String batch = array(click("a", "10:00:01", "o2"), click("a", "10:00:02", "o3"));
      LiveApi.Reply partly =
          api.send(HttpMethod.POST, "/streams/orders/events", MediaType.APPLICATION_JSON, batch)
              .expectProblem(503);
      assertThat(partly.headers().getFirst("Retry-After")).isEqualTo("1");
      JsonNode problem = partly.body();
      assertThat(problem.get("instance").asString()).isEqualTo("/streams/orders/events");
      assertThat(problem.at("/applied/steady/accepted").asInt()).isEqualTo(2);
      assertThat(problem.at("/failed/fenced/status").asInt()).isEqualTo(503);
      assertThat(problem.at("/failed/fenced/title").asString())
          .isEqualTo("State store unavailable");
      assertThat(problem.has("pipelines")).isFalse();

      // The same body again: steady has it (duplicates), fenced is rebuilt from Redis without it.
      JsonNode retried = post(api, "/streams/orders/events", batch, 202);
      assertThat(retried.at("/pipelines/steady/duplicates").asInt()).isEqualTo(2);
      assertThat(retried.at("/pipelines/fenced/accepted").asInt()).isEqualTo(2);
      for (String name : List.of("steady", "fenced")) {
        assertThat(api.get("/pipelines/" + name + "/results").at("/results/0/value").asInt())
            .as(name)
            .isEqualTo(3);
      }
    }
  }
}
