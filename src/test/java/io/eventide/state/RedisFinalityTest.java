package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Finality over Redis: a window that closes without a closing pane is final on another replica's
 * stream (its progress reaches every replica) and in results, also after the owner restarts.
 */
class RedisFinalityTest {
  private static final String LATENESS =
      """
      {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT10M",
       "aggregate": {"type": "sum"}}
      """;

  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  @Test
  void aWindowClosedWithoutAPaneIsFinalOnEveryReplicaAndAfterARestart() {
    ConfigurableApplicationContext owner = RedisEventide.start(prefix);
    try (ConfigurableApplicationContext reader = RedisEventide.start(prefix)) {
      LiveApi producer = RedisEventide.api(owner);
      LiveApi dashboard = RedisEventide.api(reader);
      producer.define("late", LATENESS);
      try (PaneStream stream = dashboard.panes("late", "")) {
        assertThat(stream.nextProgress().data().get("finalThrough").asString()).isEqualTo("-inf");
        producer.events("late", array(event("a", "2026-01-01T10:00:30Z", 4)));
        producer.watermark("late", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
        assertThat(stream.nextPane().get("final").asBoolean()).isFalse();
        // Only the progress moves: no pane, and the other replica's stream learns it at once.
        producer.watermark("late", "{\"watermark\": \"2026-01-01T10:11:00Z\"}");
        stream.progressThrough("2026-01-01T10:11:00.000Z");
        assertThat(stream.drained()).isEmpty();
      }
      assertThat(finalResult(dashboard)).isTrue();

      owner.close();
      owner = RedisEventide.start(prefix);
      assertThat(finalResult(RedisEventide.api(owner))).isTrue();
      try (PaneStream resumed = RedisEventide.api(owner).panes("late", "snapshot=true")) {
        assertThat(resumed.nextProgress().data().get("finalThrough").asString())
            .isEqualTo("2026-01-01T10:11:00.000Z");
        assertThat(resumed.next().data().at("/pane/final").asBoolean()).isTrue();
      }
    } finally {
      owner.close();
    }
  }

  private static boolean finalResult(LiveApi api) {
    JsonNode results = api.get("/pipelines/late/results");
    assertThat(results.get("finalThrough").asString()).isEqualTo("2026-01-01T10:11:00.000Z");
    return results.at("/results/0/final").asBoolean();
  }
}
