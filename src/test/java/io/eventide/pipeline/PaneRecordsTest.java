package io.eventide.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Time;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class PaneRecordsTest {
  private static final KeyFields PLAIN_KEY = EventPointers.DEFAULT.keyFields();

  @Test
  void rendersAPane() {
    Pane pane =
        new Pane(
            "k",
            new Window(0, 60_000),
            List.of("a", "b"),
            null,
            59_999,
            new PaneInfo(0, 0, Timing.ON_TIME, true, true),
            false,
            -1,
            60_000,
            5,
            60_000);
    assertThat(PaneRecords.toJson("clicks", PLAIN_KEY, pane))
        .isEqualTo(
            JsonMapper.shared()
                .readTree(
                    """
                    {"pipeline":"clicks","key":"k",
                     "window":{"start":"1970-01-01T00:00:00.000Z","end":"1970-01-01T00:01:00.000Z"},
                     "value":["a","b"],"timestamp":"1970-01-01T00:00:59.999Z",
                     "pane":{"index":0,"nonSpeculativeIndex":0,"timing":"ON_TIME","first":true,
                             "last":true},
                     "retraction":false,"final":true,"finalAt":"1970-01-01T00:01:00.000Z",
                     "emittedAt":"1970-01-01T00:00:00.005Z","watermark":"1970-01-01T00:01:00.000Z"}
                    """));
  }

  @Test
  void rendersRetractionsPartialsTheGlobalWindowAndTheEndOfTime() {
    Pane pane =
        new Pane(
            "k",
            Window.GLOBAL,
            2.5,
            Map.of("sum", 5.0, "count", 2),
            Time.GLOBAL_MAX_TIMESTAMP,
            new PaneInfo(1, -1, Timing.EARLY, false, false),
            true,
            0,
            Time.GLOBAL_MAX_TIMESTAMP + 1,
            0,
            Time.MAX);
    var json = PaneRecords.toJson("p", PLAIN_KEY, pane);
    assertThat(json.get("window").toString()).isEqualTo("{\"global\":true}");
    assertThat(json.get("partial").get("count").asInt()).isEqualTo(2);
    assertThat(json.get("retraction").asBoolean()).isTrue();
    assertThat(json.get("retracts").asInt()).isZero();
    assertThat(json.get("final").asBoolean()).isFalse();
    assertThat(json.get("watermark").stringValue()).isEqualTo("+inf");
    assertThat(json.get("pane").get("nonSpeculativeIndex").asInt()).isEqualTo(-1);
  }

  @Test
  void leavesOutAbsentPartialAndRetracts() {
    Pane pane =
        new Pane(
            "k",
            new Window(0, 10),
            1,
            null,
            9,
            new PaneInfo(0, -1, Timing.EARLY, true, false),
            false,
            -1,
            10,
            0,
            Time.MIN);
    var json = PaneRecords.toJson("p", PLAIN_KEY, pane);
    assertThat(json.has("partial")).isFalse();
    assertThat(json.has("retracts")).isFalse();
    assertThat(json.get("watermark").stringValue()).isEqualTo("-inf");
  }
}
