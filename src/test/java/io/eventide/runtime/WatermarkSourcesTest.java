package io.eventide.runtime;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/** Per-source watermarks, idleness, idle advance, future skew and explicit posts. */
@LiveRuntimeTest
class WatermarkSourcesTest {
  @LocalServerPort int port;

  private static String pipeline(String watermarkPolicy) {
    return """
        {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
         "watermark": %s}
        """
        .formatted(watermarkPolicy);
  }

  private static String from(String source, String key, String timestamp) {
    return "{\"source\":\"%s\",\"key\":\"%s\",\"timestamp\":\"%s\",\"value\":1}"
        .formatted(source, key, timestamp);
  }

  @Test
  void theSlowestActiveSourceHoldsTheWatermarkUntilItGoesIdle() {
    LiveApi api = LiveApi.on(port);
    api.define("sources", pipeline("{\"idleTimeout\": \"1s\"}"));
    try (PaneStream stream = api.panes("sources", "")) {
      // One batch: both sources are last heard from at the same instant, so they go idle together.
      api.events(
          "sources",
          array(from("s1", "a", "2026-01-01T10:00:30Z"), from("s2", "b", "2026-01-01T10:05:30Z")));
      JsonNode held = api.get("/pipelines/sources/watermark");
      assertThat(held.get("input").asString()).isEqualTo("2026-01-01T10:00:30.000Z");
      assertThat(held.at("/sources/0/watermark").asString()).isEqualTo("2026-01-01T10:00:30.000Z");
      assertThat(held.at("/sources/1/watermark").asString()).isEqualTo("2026-01-01T10:05:30.000Z");
      assertThat(api.get("/pipelines/sources/results").get("results")).isEmpty();

      Awaitility.await()
          .atMost(LiveApi.TIMEOUT)
          .until(() -> api.get("/pipelines/sources/watermark").at("/sources/0/idle").asBoolean());
      // Every source idle and no idleAdvance: nothing says how far event time has got.
      assertThat(api.get("/pipelines/sources/watermark").get("input").asString())
          .isEqualTo("2026-01-01T10:00:30.000Z");

      // s2 speaks again while s1 stays idle: s2 alone now sets the watermark.
      api.events("sources", array(from("s2", "b", "2026-01-01T10:05:40Z")));
      JsonNode pane = stream.nextPane();
      assertThat(pane.get("key").asString()).isEqualTo("a");
      assertThat(pane.at("/pane/timing").asString()).isEqualTo("ON_TIME");
      assertThat(pane.get("watermark").asString()).isEqualTo("2026-01-01T10:05:40.000Z");
      JsonNode moved = api.get("/pipelines/sources/watermark");
      assertThat(moved.at("/sources/0/source").asString()).isEqualTo("s1");
      assertThat(moved.at("/sources/0/idle").asBoolean()).isTrue();
    }
  }

  @Test
  void withIdleAdvanceTheWatermarkFollowsTheWallClockWhenEverySourceIsIdle() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "advance",
        pipeline(
            "{\"idleTimeout\": \"200ms\", \"idleAdvance\": true, \"maxOutOfOrderness\": \"1m\"}"));
    long before = System.currentTimeMillis();
    try (PaneStream stream = api.panes("advance", "")) {
      api.events("advance", array(event("k", "2026-01-01T10:00:30Z", 5)));
      JsonNode pane = stream.nextPane();
      assertThat(pane.at("/pane/timing").asString()).isEqualTo("ON_TIME");
      assertThat(pane.get("value").asDouble()).isEqualTo(5);
      long watermark = Instant.parse(pane.get("watermark").asString()).toEpochMilli();
      assertThat(watermark).isGreaterThanOrEqualTo(before - 60_000);
    }
    assertThat(api.get("/pipelines/advance/watermark").at("/sources/0/idle").asBoolean()).isTrue();
  }

  @Test
  void eventsTooFarAheadOfTheWallClockAreRejectedAndNeverMoveTheWatermark() {
    LiveApi api = LiveApi.on(port);
    api.define("skew", pipeline("{\"maxFutureSkew\": \"10m\"}"));
    String ahead = Instant.ofEpochMilli(System.currentTimeMillis() + 3_600_000).toString();
    JsonNode result =
        api.events("skew", array(event("k", ahead, 1), from("s1", "k", "2026-01-01T10:00:30Z")));
    assertThat(result.get("accepted").asInt()).isEqualTo(1);
    assertThat(result.at("/dropped/future").asInt()).isEqualTo(1);
    JsonNode watermark = api.get("/pipelines/skew/watermark");
    assertThat(watermark.get("input").asString()).isEqualTo("2026-01-01T10:00:30.000Z");
    assertThat(watermark.get("sources")).hasSize(1);

    JsonNode letter = api.get("/pipelines/skew/dead-letters").at("/deadLetters/0");
    assertThat(letter.get("reason").asString()).isEqualTo("future");
    assertThat(letter.get("path").asString()).isEqualTo("/timestamp");
    assertThat(letter.get("detail").asString()).contains("PT10M ahead of the wall clock");
    assertThat(letter.at("/event/timestamp").asString()).isEqualTo(ahead);
  }

  @Test
  void aWatermarkThatWouldGoBackwardsIsIgnoredAndReported() {
    LiveApi api = LiveApi.on(port);
    api.define("backwards", pipeline("{}"));
    JsonNode forward =
        api.watermark("backwards", "{\"source\": \"s1\", \"watermark\": \"2026-01-01T10:05:00Z\"}");
    assertThat(forward.get("accepted").asBoolean()).isTrue();
    assertThat(forward.at("/watermark/input").asString()).isEqualTo("2026-01-01T10:05:00.000Z");

    JsonNode back =
        api.watermark("backwards", "{\"source\": \"s1\", \"watermark\": 1767261600000}");
    assertThat(back.get("accepted").asBoolean()).isFalse();
    assertThat(back.get("reason").asString()).contains("backwards");
    assertThat(back.at("/watermark/input").asString()).isEqualTo("2026-01-01T10:05:00.000Z");
    assertThat(back.at("/watermark/sources/0/watermark").asString())
        .isEqualTo("2026-01-01T10:05:00.000Z");

    api.watermark("backwards", "{\"watermark\": \"2026-01-01T10:10:00Z\"}");
    JsonNode drainBack = api.watermark("backwards", "{\"watermark\": \"2026-01-01T10:07:00Z\"}");
    assertThat(drainBack.get("accepted").asBoolean()).isFalse();
    assertThat(drainBack.at("/watermark/input").asString()).isEqualTo("2026-01-01T10:10:00.000Z");
  }

  @Test
  void aPipelineTracksAtMostMaxSourcesAndRefusesEventsOfOneMore() {
    LiveApi api = LiveApi.on(port);
    api.define("many-sources", pipeline("{}"));
    String[] events = new String[1001];
    for (int i = 0; i < events.length; i++) {
      events[i] = from("s" + i, "k", "2026-01-01T10:00:30Z");
    }
    JsonNode result = api.events("many-sources", array(events));
    assertThat(result.get("accepted").asInt()).isEqualTo(1000);
    assertThat(result.at("/dropped/invalid").asInt()).isEqualTo(1);
    assertThat(api.get("/pipelines/many-sources/watermark").get("sources")).hasSize(1000);
    JsonNode letter = api.get("/pipelines/many-sources/dead-letters").at("/deadLetters/0");
    assertThat(letter.get("reason").asString()).isEqualTo("invalid");
    assertThat(letter.get("path").asString()).isEqualTo("/source");
    assertThat(letter.get("detail").asString()).contains("1000 sources");
    assertThat(letter.at("/event/source").asString()).isEqualTo("s1000");

    // A known source is still heard; one more is refused, by name.
    JsonNode known = api.events("many-sources", array(from("s7", "k", "2026-01-01T10:00:31Z")));
    assertThat(known.get("accepted").asInt()).isEqualTo(1);
    JsonNode problem =
        api.send(
                HttpMethod.POST,
                "/pipelines/many-sources/watermark",
                MediaType.APPLICATION_JSON,
                "{\"source\": \"s1001\", \"watermark\": \"2026-01-01T10:05:00Z\"}")
            .expectProblem(400)
            .body();
    assertThat(problem.at("/errors/0/path").asString()).isEqualTo("/source");
  }

  @Test
  void aSourceNameIsBoundedInLengthAndCarriesNoControlCharacters() {
    LiveApi api = LiveApi.on(port);
    api.define("source-names", pipeline("{}"));
    String tooLong = "s".repeat(257);
    JsonNode problem =
        api.send(
                HttpMethod.POST,
                "/pipelines/source-names/watermark",
                MediaType.APPLICATION_JSON,
                "{\"source\": \"" + tooLong + "\", \"watermark\": \"2026-01-01T10:05:00Z\"}")
            .expectProblem(400)
            .body();
    assertThat(problem.at("/errors/0/path").asString()).isEqualTo("/source");
    assertThat(problem.at("/errors/0/reason").asString()).contains("256");

    JsonNode result =
        api.events(
            "source-names",
            array(
                from(tooLong, "k", "2026-01-01T10:00:30Z"),
                from("tab\\there", "k", "2026-01-01T10:00:30Z"),
                from("s1", "k", "2026-01-01T10:00:30Z")));
    assertThat(result.get("accepted").asInt()).isEqualTo(1);
    assertThat(result.at("/dropped/invalid").asInt()).isEqualTo(2);
    assertThat(api.get("/pipelines/source-names/dead-letters").get("deadLetters"))
        .extracting(l -> l.get("path").asString())
        .containsExactly("/source", "/source");
    assertThat(api.get("/pipelines/source-names/watermark").get("sources")).hasSize(1);
  }

  @Test
  void aSourceSilentForMuchLongerThanTheIdleTimeoutIsForgotten() {
    LiveApi api = LiveApi.on(port);
    api.define("forgetting", pipeline("{\"idleTimeout\": \"20ms\"}"));
    api.events(
        "forgetting",
        array(from("s1", "a", "2026-01-01T10:00:30Z"), from("s2", "b", "2026-01-01T10:00:40Z")));
    assertThat(api.get("/pipelines/forgetting/watermark").get("sources")).hasSize(2);
    // s2 keeps speaking; s1 falls silent for far longer than its idle timeout.
    Awaitility.await()
        .atMost(LiveApi.TIMEOUT)
        .untilAsserted(
            () -> {
              api.events("forgetting", array(from("s2", "b", "2026-01-01T10:00:41Z")));
              assertThat(api.get("/pipelines/forgetting/watermark").get("sources"))
                  .extracting(s -> s.get("source").asString())
                  .containsExactly("s2");
            });
    // Forgetting an idle source moved nothing: the watermark is s2's, as it was.
    assertThat(api.get("/pipelines/forgetting/watermark").get("input").asString())
        .isEqualTo("2026-01-01T10:00:41.000Z");
  }
}
