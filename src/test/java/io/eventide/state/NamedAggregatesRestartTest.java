package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * A clickstream pipeline of named aggregates over a composite key, on a real Redis, stopped and
 * started again: the session's accumulators come back name by name (the sketch of distinct pages
 * included) and its key keeps its string form and its object in pane records.
 */
class NamedAggregatesRestartTest {
  private static final String SESSIONS =
      """
      {"window": {"type": "session", "gap": "5m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating",
       "event": {"key": ["/site", "/user"]},
       "aggregates": {
         "clicks": {"type": "count"},
         "pages": {"type": "distinctCount", "field": "/page"},
         "dwell": {"type": "sum", "field": "/dwellMs"}}}
      """;

  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  private static String click(String user, String at, String page, int dwell) {
    return """
        {"site": "shop", "user": "%s", "timestamp": "%s", "page": "%s", "dwellMs": %d}"""
        .formatted(user, at, page, dwell);
  }

  @Test
  void namedAccumulatorsAndCompositeKeysSurviveARestart() {
    try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
      LiveApi api = RedisEventide.api(app);
      api.define("clickstream", SESSIONS);
      try (PaneStream stream = api.panes("clickstream", "")) {
        api.events(
            "clickstream",
            array(
                click("ann", "2026-01-01T10:00:00Z", "/home", 1000),
                click("ann", "2026-01-01T10:01:00Z", "/shoes", 3000),
                click("ann", "2026-01-01T10:02:00Z", "/home", 500)));
        JsonNode pane = stream.nextPane();
        assertThat(pane.at("/value/clicks").asInt()).isEqualTo(3);
      }
    }
    try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
      LiveApi api = RedisEventide.api(app);
      try (PaneStream stream = api.panes("clickstream", "")) {
        api.events("clickstream", array(click("ann", "2026-01-01T10:04:00Z", "/cart", 2000)));
        JsonNode pane = stream.nextPane();
        assertThat(pane.get("key").toString()).isEqualTo("{\"site\":\"shop\",\"user\":\"ann\"}");
        assertThat(pane.at("/value/clicks").asInt()).isEqualTo(4);
        assertThat(pane.at("/value/pages").asInt()).isEqualTo(3);
        assertThat(pane.at("/value/dwell").asDouble()).isEqualTo(6500);
        assertThat(pane.get("partial").propertyNames()).containsExactly("pages");
      }
      JsonNode results = api.get("/pipelines/clickstream/results?key=shop|ann");
      assertThat(results.at("/results/0/value/clicks").asInt()).isEqualTo(4);
      assertThat(results.at("/results/0/key/user").asString()).isEqualTo("ann");
    }
  }
}
