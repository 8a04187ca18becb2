package io.eventide.runtime;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Processing-time triggers fire on the wall clock, driven by the scheduler's beat. */
@LiveRuntimeTest
class ProcessingTimeTest {
  private static final long DELAY_MILLIS = 300;

  @LocalServerPort int port;

  @Test
  void earlyPanesFireAfterTheDelayWithoutAnyFurtherInput() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "wallclock",
        """
        {"window": {"type": "fixed", "size": "1h"},
         "trigger": {"type": "repeatedly",
                     "trigger": {"type": "afterProcessingTime", "delay": "%dms"}},
         "aggregate": {"type": "sum"}}
        """
            .formatted(DELAY_MILLIS));
    try (PaneStream stream = api.panes("wallclock", "")) {
      long sent = System.currentTimeMillis();
      api.events(
          "wallclock",
          array(event("k", "2026-01-01T10:00:00Z", 1), event("k", "2026-01-01T10:20:00Z", 2)));
      JsonNode first = stream.nextPane();
      assertEarly(first, 3, 0, sent);

      long sentAgain = System.currentTimeMillis();
      api.events("wallclock", array(event("k", "2026-01-01T10:30:00Z", 4)));
      assertEarly(stream.nextPane(), 4, 1, sentAgain);
    }
  }

  /** The pane fired strictly after the first element of its pane plus the delay. */
  private static void assertEarly(JsonNode pane, double value, int index, long sentAt) {
    assertThat(pane.get("value").asDouble()).isEqualTo(value);
    assertThat(pane.at("/pane/index").asInt()).isEqualTo(index);
    assertThat(pane.at("/pane/timing").asString()).isEqualTo("EARLY");
    long emitted = Instant.parse(pane.get("emittedAt").asString()).toEpochMilli();
    assertThat(emitted).isGreaterThan(sentAt + DELAY_MILLIS);
  }
}
