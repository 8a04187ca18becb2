package io.eventide.runtime;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Events in, watermarks forward, panes out in order: the producer-to-dashboard path. */
@LiveRuntimeTest
class EventTimeFlowTest {
  private static final String EARLY_AND_LATE =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "trigger": {"type": "afterWatermark",
                   "early": {"type": "afterCount", "count": 2},
                   "late": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating", "allowedLateness": "5m",
       "aggregate": {"type": "sum"}}
      """;

  @LocalServerPort int port;

  @Test
  void panesOfAKeyLeaveInOrderAsEventsArriveAndTheWatermarkAdvances() {
    LiveApi api = LiveApi.on(port);
    api.define("flow", EARLY_AND_LATE);
    try (PaneStream stream = api.panes("flow", "")) {
      JsonNode first =
          api.events(
              "flow",
              array(
                  event("a", "2026-01-01T10:00:05Z", 1),
                  event("a", "2026-01-01T10:00:20Z", 2),
                  event("b", "2026-01-01T10:00:10Z", 100)));
      assertThat(first.toString())
          .isEqualTo(
              "{\"accepted\":3,\"late\":0,\"duplicates\":0,\"filtered\":0,\"clamped\":0,"
                  + "\"dropped\":{\"expired\":0,\"closed\":0,\"future\":0,\"invalid\":0,"
                  + "\"quota\":0},"
                  + "\"rejectedTotal\":0,\"rejected\":[]}");
      JsonNode early = stream.nextPane();
      assertPane(early, "a", 3, 0, "EARLY");

      api.events("flow", array(event("a", "2026-01-01T10:00:30Z", 4)));
      JsonNode explained = api.get("/pipelines/flow/windows?key=a").at("/windows/0");
      assertThat(explained.get("elements").asInt()).isEqualTo(3);
      assertThat(explained.get("nextPaneIndex").asInt()).isEqualTo(1);
      assertThat(explained.get("pendingElements").asBoolean()).isTrue();
      assertThat(explained.get("closed").asBoolean()).isFalse();
      assertThat(explained.get("trigger").asString())
          .contains("afterCount 1 of 2")
          .contains("on time when the watermark passes 2026-01-01T10:00:59.999Z")
          .contains("the watermark is 2026-01-01T10:00:30Z");
      assertThat(explained.get("gcTime").asString()).isEqualTo("2026-01-01T10:05:59.999Z");

      JsonNode posted = api.watermark("flow", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      assertThat(posted.get("accepted").asBoolean()).isTrue();
      assertThat(posted.at("/watermark/input").asString()).isEqualTo("2026-01-01T10:01:00.000Z");
      // Both keys' on-time panes come out; their relative order is up to the shards.
      List<JsonNode> onTime = List.of(stream.nextPane(), stream.nextPane());
      JsonNode a =
          onTime.stream()
              .filter(p -> p.get("key").asString().equals("a"))
              .findFirst()
              .orElseThrow();
      assertPane(a, "a", 7, 1, "ON_TIME");
      assertThat(a.get("watermark").asString()).isEqualTo("2026-01-01T10:01:00.000Z");

      JsonNode late = api.events("flow", array(event("a", "2026-01-01T10:00:50Z", 8)));
      assertThat(late.get("accepted").asInt()).isEqualTo(1);
      assertThat(late.get("late").asInt()).isEqualTo(1);
      assertPane(stream.nextPane(), "a", 15, 2, "LATE");
    }

    JsonNode results = api.get("/pipelines/flow/results?key=a").get("results");
    assertThat(results).hasSize(1);
    assertPane(results.get(0), "a", 15, 2, "LATE");
    assertThat(results.get(0).get("final").asBoolean()).isFalse();
    assertThat(results.get(0).get("finalAt").asString()).isEqualTo("2026-01-01T10:06:00.000Z");

    JsonNode watermark = api.get("/pipelines/flow/watermark");
    assertThat(watermark.get("input").asString()).isEqualTo("2026-01-01T10:01:00.000Z");
    assertThat(watermark.at("/sources/0/source").asString()).isEqualTo("default");
    assertThat(watermark.get("lagMillis").asLong()).isPositive();
  }

  @Test
  void thePaneIndexDecidesTheLatestResultAndTheFinalPaneSaysSo() {
    LiveApi api = LiveApi.on(port);
    api.define("latest", EARLY_AND_LATE.replace("\"5m\"", "\"0s\""));
    for (int i = 0; i < 3; i++) {
      api.events(
          "latest",
          array(
              event("k", "2026-01-01T10:00:0" + i + "Z", 1),
              event("k", "2026-01-01T10:00:0" + i + "Z", 1)));
    }
    JsonNode early = api.get("/pipelines/latest/results").at("/results/0");
    assertPane(early, "k", 6, 2, "EARLY");
    assertThat(early.get("final").asBoolean()).isFalse();

    api.watermark("latest", "{\"watermark\": \"+inf\"}");
    JsonNode last = api.get("/pipelines/latest/results").at("/results/0");
    assertPane(last, "k", 6, 3, "ON_TIME");
    assertThat(last.get("final").asBoolean()).isTrue();
    assertThat(last.at("/pane/last").asBoolean()).isTrue();
  }

  @Test
  void anEventSentTwiceWithTheSameIdCountsOnce() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "dedup",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}");
    String e1 = "{\"id\":\"e1\",\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:01Z\",\"value\":1}";
    String e2 = "{\"id\":7,\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:02Z\",\"value\":2}";
    JsonNode first = api.events("dedup", array(e1, e1, e2));
    assertThat(first.get("accepted").asInt()).isEqualTo(2);
    assertThat(first.get("duplicates").asInt()).isEqualTo(1);
    JsonNode again = api.ndjson("dedup", List.of(e2, e1));
    assertThat(again.get("accepted").asInt()).isZero();
    assertThat(again.get("duplicates").asInt()).isEqualTo(2);

    api.watermark("dedup", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
    assertThat(api.get("/pipelines/dedup/results").at("/results/0/value").asDouble()).isEqualTo(3);
  }

  private static void assertPane(
      JsonNode pane, String key, double value, int index, String timing) {
    assertThat(pane.get("key").asString()).isEqualTo(key);
    assertThat(pane.get("value").asDouble()).isEqualTo(value);
    assertThat(pane.at("/pane/index").asInt()).isEqualTo(index);
    assertThat(pane.at("/pane/timing").asString()).isEqualTo(timing);
    assertThat(pane.at("/window/start").asString()).isEqualTo("2026-01-01T10:00:00.000Z");
  }
}
