package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Eventide over a real Redis, stopped and started again in this JVM: definitions, windows,
 * watermarks, timers, results and the pane log are where they were, and a dashboard resumes its
 * pane stream with Last-Event-ID without a gap or a duplicate. (A SIGKILL of a child JVM is {@link
 * RedisKillTest}.)
 */
class RedisRestartTest {
  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  private ConfigurableApplicationContext start() {
    return RedisEventide.start(prefix, "--eventide.outputs.sse-heartbeat=100ms");
  }

  private static LiveApi api(ConfigurableApplicationContext app) {
    return RedisEventide.api(app);
  }

  @Test
  void windowsWatermarksResultsAndThePaneLogSurviveARestart() {
    String definition =
        """
        {"window": {"type": "fixed", "size": "1m"},
         "trigger": {"type": "afterWatermark",
                     "early": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating",
         "aggregate": {"type": "sum"}}
        """;
    List<PaneStream.Received> before = new ArrayList<>();
    try (ConfigurableApplicationContext app = start()) {
      LiveApi api = api(app);
      api.define("totals", definition);
      try (PaneStream stream = api.panes("totals", "")) {
        api.events(
            "totals",
            array(
                event("a", "2026-01-01T10:00:01Z", 1),
                event("b", "2026-01-01T10:00:02Z", 10),
                event("c", "2026-01-01T10:00:30Z", 100)));
        before.addAll(stream.next(3));
      }
      assertThat(before)
          .extracting(r -> r.data().at("/pane/timing").asString())
          .containsOnly("EARLY");
    }

    try (ConfigurableApplicationContext app = start()) {
      LiveApi api = api(app);
      assertThat(api.get("/pipelines/totals").at("/window/size").asString()).isEqualTo("PT1M");
      // The windows kept their sums and pane indexes: the next early pane continues them.
      try (PaneStream resumed = api.resume("totals", before.get(0).id())) {
        List<PaneStream.Received> missed = resumed.next(2);
        assertThat(missed)
            .extracting(PaneStream.Received::id)
            .containsExactly(before.get(1).id(), before.get(2).id());
        api.events("totals", array(event("a", "2026-01-01T10:00:03Z", 2)));
        JsonNode next = resumed.nextPane();
        assertThat(next.get("key").asString()).isEqualTo("a");
        assertThat(next.get("value").asDouble()).as("%s", next).isEqualTo(3);
        assertThat(next.at("/pane/index").asInt()).isEqualTo(1);
        // The watermark comes back where the tracker had it and moves on from there.
        api.watermark("totals", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
        List<JsonNode> onTime = List.of(resumed.nextPane(), resumed.nextPane(), resumed.nextPane());
        assertThat(onTime).extracting(p -> p.at("/pane/timing").asString()).containsOnly("ON_TIME");
        assertThat(onTime)
            .extracting(p -> p.get("value").asDouble())
            .containsExactlyInAnyOrder(3.0, 10.0, 100.0);
      }
      JsonNode results = api.get("/pipelines/totals/results").get("results");
      assertThat(results).hasSize(3);
      assertThat(results).extracting(r -> r.at("/pane/timing").asString()).containsOnly("ON_TIME");
    }
  }

  @Test
  void aProcessingTimeTimerThatCameDueWhileStoppedFiresAtStart() {
    long due;
    try (ConfigurableApplicationContext app = start()) {
      LiveApi api = api(app);
      api.define(
          "wallclock",
          """
          {"window": {"type": "fixed", "size": "1h"},
           "trigger": {"type": "repeatedly",
                       "trigger": {"type": "afterProcessingTime", "delay": "1s"}},
           "aggregate": {"type": "sum"}}
          """);
      api.events("wallclock", array(event("k", "2026-01-01T10:00:00Z", 5)));
      due = System.currentTimeMillis() + 1000;
    }
    // The timer comes due on the wall clock while nothing runs.
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> System.currentTimeMillis() > due);
    try (ConfigurableApplicationContext app = start()) {
      LiveApi api = api(app);
      // No request touches the pipeline: it resumed at start-up and its overdue timer fired.
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> api.get("/pipelines/wallclock/results").get("results").size() == 1);
      JsonNode pane = api.get("/pipelines/wallclock/results").get("results").get(0);
      assertThat(pane.get("value").asDouble()).isEqualTo(5);
      assertThat(pane.at("/pane/timing").asString()).isEqualTo("EARLY");
    }
  }

  @Test
  void aRuntimeFencedByAnotherOwnerAnswers503OnceThenResumesFromRedis() throws Exception {
    try (ConfigurableApplicationContext app = start()) {
      LiveApi api = api(app);
      api.define("fenced", TestRedis.RUNNING_COUNT);
      api.events("fenced", array(event("a", "2026-01-01T10:00:00Z", 1)));
      // Another owner takes the pipeline's state over, as a second replica would.
      RedisEventide.fence(app, "fenced");
      LiveApi.Reply refused =
          api.postEvents(
              "fenced",
              org.springframework.http.MediaType.APPLICATION_JSON,
              array(event("a", "2026-01-01T10:00:01Z", 1)));
      refused.expectProblem(503);
      assertThat(refused.headers().getFirst("Retry-After")).isEqualTo("1");
      assertThat(commitFailures(app, "fenced")).isEqualTo(1);
      // The next request rebuilds the pipeline from Redis, where the refused batch is not.
      api.events("fenced", array(event("a", "2026-01-01T10:00:02Z", 1)));
      JsonNode result = api.get("/pipelines/fenced/results").get("results").get(0);
      assertThat(result.get("value").asLong()).isEqualTo(2);
      assertThat(result.at("/pane/index").asInt()).isEqualTo(1);
    }
  }

  /** The pipeline's failed commits, as Prometheus shows them to operators. */
  private static double commitFailures(ConfigurableApplicationContext app, String pipeline)
      throws Exception {
    int port = app.getEnvironment().getProperty("local.server.port", Integer.class);
    String text =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://localhost:" + port + "/actuator/prometheus"))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString())
            .body();
    return text.lines()
        .filter(l -> l.startsWith("eventide_state_commit_failures_total{"))
        .filter(l -> l.contains("pipeline=\"" + pipeline + "\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  @Test
  void aSessionMergedIntoAnotherLeavesTheResultsInRedis() {
    try (ConfigurableApplicationContext app = start()) {
      api(app).mergeTwoSessionsAndExpectOneResult("merging");
      // Nothing of the merged-away session is left in any of the results' keys.
      String results = prefix + ":{merging}:results";
      long stored = TestRedis.call(redis -> redis.hlen(results));
      long indexed = TestRedis.call(redis -> redis.hlen(results + ":index"));
      long ordered = TestRedis.call(redis -> redis.zcard(results + ":order"));
      assertThat(List.of(stored, indexed, ordered)).containsOnly(1L);
    }
  }

  private static final String DOOMED =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}";

  @Test
  void deleteDropsEveryKeyOfThePipeline() {
    try (ConfigurableApplicationContext app = start()) {
      LiveApi api = api(app);
      api.define("doomed", DOOMED);
      api.events("doomed", array(event("k", "2026-01-01T10:00:00Z", 1)));
      api.delete("doomed").expect(204);
      api.define("doomed", DOOMED);
      assertThat(api.get("/pipelines/doomed/windows").get("windows")).isEmpty();
      assertThat(api.get("/pipelines/doomed/results").get("results")).isEmpty();
      api.delete("doomed").expect(204);
      assertThat(TestRedis.keys(prefix + ":{doomed}:*")).isEmpty();
    }
  }
}
