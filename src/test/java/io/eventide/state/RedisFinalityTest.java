package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
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
    onTwoReplicasThenRestarted(
        (producer, dashboard) -> {
          producer.define("late", LATENESS);
          try (PaneStream stream = dashboard.panes("late", "")) {
            assertThat(stream.nextProgress().data().get("finalThrough").asString())
                .isEqualTo("-inf");
            producer.events("late", array(event("a", "2026-01-01T10:00:30Z", 4)));
            producer.watermark("late", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
            assertThat(stream.nextPane().get("final").asBoolean()).isFalse();
            // Only the progress moves: no pane, and the other replica's stream learns it at once.
            producer.watermark("late", "{\"watermark\": \"2026-01-01T10:11:00Z\"}");
            stream.progressThrough("2026-01-01T10:11:00.000Z");
            assertThat(stream.drained()).isEmpty();
          }
          assertThat(finalResult(dashboard)).isTrue();
        },
        restarted -> {
          assertThat(finalResult(restarted)).isTrue();
          try (PaneStream resumed = restarted.panes("late", "snapshot=true")) {
            assertThat(resumed.nextProgress().data().get("finalThrough").asString())
                .isEqualTo("2026-01-01T10:11:00.000Z");
            assertThat(resumed.next().data().at("/pane/final").asBoolean()).isTrue();
          }
        });
  }

  /**
   * A count trigger with the earliest combiner: an element that has not fired yet holds the output
   * watermark at its timestamp while the input watermark goes on. Progress says so on another
   * replica's stream, lets go once the pane fires, and is read back after the owner restarts.
   */
  @Test
  void progressCarriesTheOutputWatermarkThatHoldsKeepBehind() {
    onTwoReplicasThenRestarted(
        (producer, dashboard) -> {
          producer.define(
              "held",
              """
              {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT10M",
               "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 2}},
               "timestampCombiner": "earliest", "aggregate": {"type": "sum"}}
              """);
          try (PaneStream stream = dashboard.panes("held", "")) {
            assertThat(stream.nextProgress().data().get("watermark").asString()).isEqualTo("-inf");
            producer.events("held", array(event("a", "2026-01-01T10:00:30Z", 4)));
            producer.watermark("held", "{\"watermark\": \"2026-01-01T10:05:00Z\"}");
            JsonNode held = stream.progressThrough("2026-01-01T10:05:00.000Z");
            assertThat(held.get("watermark").asString()).isEqualTo("2026-01-01T10:00:30.000Z");
            // The second element fires the pane, which releases the hold.
            producer.events("held", array(event("a", "2026-01-01T10:00:40Z", 1)));
            assertThat(stream.nextPane().get("value").asLong()).isEqualTo(5);
            assertThat(stream.nextProgress().data().get("watermark").asString())
                .isEqualTo("2026-01-01T10:05:00.000Z");
          }
        },
        restarted -> {
          try (PaneStream reopened = restarted.panes("held", "")) {
            JsonNode progress = reopened.nextProgress().data();
            assertThat(progress.get("watermark").asString()).isEqualTo("2026-01-01T10:05:00.000Z");
            assertThat(progress.get("finalThrough").asString())
                .isEqualTo("2026-01-01T10:05:00.000Z");
          }
        });
  }

  /**
   * Runs {@code replicas} with the API of an owner (the first replica to start, so the one that
   * owns what is defined) and of a second replica, then {@code restarted} with the owner's API once
   * it has been stopped and started again.
   */
  private void onTwoReplicasThenRestarted(
      BiConsumer<LiveApi, LiveApi> replicas, Consumer<LiveApi> restarted) {
    ConfigurableApplicationContext owner = RedisEventide.start(prefix);
    try (ConfigurableApplicationContext reader = RedisEventide.start(prefix)) {
      replicas.accept(RedisEventide.api(owner), RedisEventide.api(reader));
      owner.close();
      owner = RedisEventide.start(prefix);
      restarted.accept(RedisEventide.api(owner));
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
