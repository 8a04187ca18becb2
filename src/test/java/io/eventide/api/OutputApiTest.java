package io.eventide.api;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import io.eventide.runtime.PaneStream;
import io.eventide.sink.PaneEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/** The dashboard side: pane stream filters and lifetime, results, redefinition. */
@LiveRuntimeTest
class OutputApiTest {
  private static final String SUMS =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}";

  @LocalServerPort int port;

  /**
   * A global window is final only at the end of time, a finalAt past the range producers may use:
   * its results and its snapshot are read all the same, final once the watermark is +inf.
   */
  @Test
  void aGlobalWindowsResultIsReadBeforeAndAfterTheEndOfTime() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "global-results",
        """
        {"window": {"type": "global"}, "aggregate": {"type": "count"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}}}
        """);
    api.events("global-results", array(event("g", "2026-01-01T10:00:00Z", 1)));
    JsonNode result = api.get("/pipelines/global-results/results").at("/results/0");
    assertThat(result.get("value").asLong()).isEqualTo(1);
    assertThat(result.get("final").asBoolean()).isFalse();
    try (PaneStream stream = api.panes("global-results", "snapshot=true")) {
      assertThat(stream.next().type()).isEqualTo("snapshot");
    }
    api.watermark("global-results", "{\"watermark\": \"+inf\"}");
    assertThat(api.get("/pipelines/global-results/results").at("/results/0/final").asBoolean())
        .isTrue();
  }

  @Test
  void theStreamSendsHeartbeatsAndEndsWhenThePipelineIsDeletedOrReset() {
    LiveApi api = LiveApi.on(port);
    api.define("ending", SUMS);
    try (PaneStream deleted = api.panes("ending", "")) {
      deleted.awaitHeartbeats(2);
      api.delete("ending").expect(204);
      deleted.awaitEnd();
    }
    api.define("ending", SUMS);
    try (PaneStream reset = api.panes("ending", "")) {
      api.put("ending?reset=true", SUMS).expect(200);
      reset.awaitEnd();
    }
  }

  @Test
  void filtersSelectByKeyTimingAndFinalityAndRetractionsHaveTheirOwnType() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "filtered",
        """
        {"window": {"type": "fixed", "size": "1m"},
         "trigger": {"type": "afterWatermark", "early": {"type": "afterCount", "count": 1}},
         "accumulation": "retracting", "aggregate": {"type": "sum"}}
        """);
    try (PaneStream all = api.panes("filtered", "");
        PaneStream keyA = api.panes("filtered", "key=a");
        PaneStream onTime = api.panes("filtered", "timing=on_time");
        PaneStream finals = api.panes("filtered", "final=true")) {
      api.events(
          "filtered",
          array(event("a", "2026-01-01T10:00:01Z", 1), event("b", "2026-01-01T10:00:02Z", 2)));
      api.events("filtered", array(event("a", "2026-01-01T10:00:03Z", 3)));
      api.watermark("filtered", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      // a: +1, then -1 +4, then -4 +4 on time; b: +2, then -2 +2 on time.
      List<PaneStream.Received> everything = all.next(8);
      assertThat(everything.stream().filter(e -> e.type().equals("retraction"))).hasSize(3);
      for (int i = 1; i < everything.size(); i++) {
        assertThat(PaneEvent.compareIds(everything.get(i).id(), everything.get(i - 1).id()))
            .isPositive();
      }
      for (PaneStream.Received r : everything) {
        assertThat(r.data().get("retraction").asBoolean()).isEqualTo(r.type().equals("retraction"));
      }
      assertFiltered(keyA, everything, d -> d.get("key").asString().equals("a"));
      assertFiltered(onTime, everything, d -> d.at("/pane/timing").asString().equals("ON_TIME"));
      assertFiltered(finals, everything, d -> d.get("final").asBoolean());
    }
    api.send(
            org.springframework.http.HttpMethod.GET,
            "/pipelines/filtered/panes?timing=soon",
            null,
            null)
        .expectProblem(400);
  }

  /** A filtered stream gets exactly the events of the full stream that pass, with the same ids. */
  private static void assertFiltered(
      PaneStream stream, List<PaneStream.Received> everything, Predicate<JsonNode> filter) {
    List<PaneStream.Received> expected =
        everything.stream().filter(e -> filter.test(e.data())).toList();
    assertThat(expected).isNotEmpty();
    assertThat(stream.next(expected.size())).isEqualTo(expected);
  }

  @Test
  void aClientReconnectingWithLastEventIdGetsWhatItMissedThenLivePanesWithItsFilters() {
    LiveApi api = LiveApi.on(port);
    api.define("resumed", LiveApi.EVERY_BATCH_SUM);
    String lastSeen;
    try (PaneStream first = api.panes("resumed", "")) {
      api.events("resumed", array(event("a", "2026-01-01T10:00:01Z", 1)));
      lastSeen = first.next().id();
    }
    // Missed while disconnected: two panes of a, one of b.
    api.events("resumed", array(event("a", "2026-01-01T10:00:02Z", 2)));
    api.events("resumed", array(event("b", "2026-01-01T10:00:03Z", 3)));
    api.events("resumed", array(event("a", "2026-01-01T10:00:04Z", 4)));
    try (PaneStream again = api.resume("resumed", lastSeen);
        PaneStream onlyA = api.resume("resumed", "key=a", lastSeen)) {
      List<PaneStream.Received> missed = again.next(3);
      assertThat(missed)
          .extracting(r -> r.data().get("value").asDouble())
          .containsExactly(2.0, 3.0, 4.0);
      assertThat(onlyA.next(2))
          .extracting(r -> r.data().get("value").asDouble())
          .containsExactly(2.0, 4.0);
      api.events("resumed", array(event("a", "2026-01-01T10:00:05Z", 5)));
      PaneStream.Received live = again.next();
      assertThat(live.data().get("value").asDouble()).isEqualTo(5.0);
      assertThat(PaneEvent.compareIds(live.id(), missed.get(2).id())).isPositive();
      assertThat(onlyA.next().data().get("value").asDouble()).isEqualTo(5.0);
    }
  }

  @Test
  void aSessionMergedIntoAnotherLeavesTheResults() {
    LiveApi.on(port).mergeTwoSessionsAndExpectOneResult("merging");
  }

  @Test
  void aLastEventIdThatIsNoPaneIdIsRefused() {
    LiveApi api = LiveApi.on(port);
    api.define("resume-bad", SUMS);
    LiveApi.Reply reply =
        api.send(
            HttpMethod.GET,
            "/pipelines/resume-bad/panes",
            h -> h.set("Last-Event-ID", "yesterday"));
    reply.expectProblem(400);
    assertThat(reply.body().at("/errors/0/path").asString()).isEqualTo("Last-Event-ID");
  }

  /**
   * Issue 34, item 8: a position after the newest entry (a log started anew) is refused at once;
   * before, the stream stayed silent until the new log outgrew it.
   */
  @Test
  void aLastEventIdAheadOfTheLogIsRefusedAndOneItHoldsIsNot() {
    LiveApi api = LiveApi.on(port);
    api.define("resume-ahead", LiveApi.EVERY_BATCH_SUM);
    api.events("resume-ahead", array(event("a", "2026-01-01T10:00:00Z", 1)));
    LiveApi.Reply reply =
        api.send(
            HttpMethod.GET,
            "/pipelines/resume-ahead/panes",
            h -> h.set("Last-Event-ID", "99999999999999-0"));
    reply.expectProblem(400);
    assertThat(reply.body().at("/errors/0/path").asString()).isEqualTo("Last-Event-ID");
    assertThat(reply.body().at("/errors/0/reason").asString())
        .contains("after the newest entry")
        .contains("snapshot=true");
    try (PaneStream stream = api.resume("resume-ahead", "0")) {
      assertThat(stream.next().data().get("key").asString()).isEqualTo("a");
    }
  }

  @Test
  void resultsSelectByKeyAndByWindowsOverlappingARange() {
    LiveApi api = LiveApi.on(port);
    api.define("ranged", SUMS);
    List<String> events = new ArrayList<>();
    for (String key : List.of("a", "b")) {
      for (int minute = 0; minute < 3; minute++) {
        events.add(event(key, "2026-01-01T10:0" + minute + ":30Z", minute + 1));
      }
    }
    api.events("ranged", array(events.toArray(String[]::new)));
    api.watermark("ranged", "{\"watermark\": \"+inf\"}");

    assertThat(api.get("/pipelines/ranged/results").get("results")).hasSize(6);
    JsonNode one =
        api.get("/pipelines/ranged/results?key=a&from=2026-01-01T10:01:00Z&to=1767261720000")
            .get("results");
    assertThat(one).hasSize(1);
    assertThat(one.at("/0/window/start").asString()).isEqualTo("2026-01-01T10:01:00.000Z");
    assertThat(one.at("/0/value").asDouble()).isEqualTo(2);
    assertThat(one.at("/0/final").asBoolean()).isTrue();
    api.send(
            org.springframework.http.HttpMethod.GET,
            "/pipelines/ranged/results?from=soon",
            null,
            null)
        .expectProblem(400);
  }

  @Test
  void changingWhatARunningPipelineComputesNeedsAReset() {
    LiveApi api = LiveApi.on(port);
    api.define("redefined", SUMS);
    api.events("redefined", array(event("k", "2026-01-01T10:00:00Z", 1)));
    api.events("redefined", "{\"key\": \"k\"}");

    String wider = SUMS.replace("1m", "5m");
    JsonNode conflict = api.put("redefined", wider).expectProblem(409).body();
    assertThat(conflict.get("detail").asString()).contains("window").contains("?reset=true");
    assertThat(conflict.get("pipeline").asString()).isEqualTo("redefined");
    assertThat(api.get("/pipelines/redefined").at("/window/size").asString()).isEqualTo("PT1M");

    // The watermark policy does not change what the engine computes: state is kept.
    String patient = SUMS.replace("}}", "}, \"watermark\": {\"maxOutOfOrderness\": \"10s\"}}");
    api.put("redefined", patient).expect(200);
    assertThat(api.get("/pipelines/redefined/windows").get("windows")).hasSize(1);

    api.put("redefined?reset=true", wider).expect(200);
    assertThat(api.get("/pipelines/redefined").at("/window/size").asString()).isEqualTo("PT5M");
    assertThat(api.get("/pipelines/redefined/windows").get("windows")).isEmpty();
    assertThat(api.get("/pipelines/redefined/dead-letters").get("deadLetters")).isEmpty();
    assertThat(api.get("/pipelines/redefined/watermark").get("input").asString()).isEqualTo("-inf");
  }
}
