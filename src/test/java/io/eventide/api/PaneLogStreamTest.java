package io.eventide.api;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import io.eventide.runtime.PaneStream;
import io.eventide.sink.PaneEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.reactive.function.client.WebClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pane streams read the pane log: a burst reaches a subscriber whole with the default settings, a
 * resume from the log's start reads it page by page, a snapshot stream is every window's result and
 * then every change after it, merges are announced.
 */
@LiveRuntimeTest
class PaneLogStreamTest {
  private static final String ACCUMULATING_EARLY =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "trigger": {"type": "afterWatermark", "early": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating", "aggregate": {"type": "sum"}}
      """;

  private static final String FINALITY =
      """
      {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT10M",
       "aggregate": {"type": "sum"}}
      """;

  @LocalServerPort int port;

  /**
   * The W1 burst: 10 000 keys in one-minute windows, and one watermark step that fires all their
   * on-time panes at once, all of which one subscriber receives, in log order.
   */
  @Test
  void oneWatermarkStepFiringTenThousandPanesReachesASubscriberWhole() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "burst",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}}");
    int keys = 10_000;
    for (int from = 0; from < keys; from += 2000) {
      List<String> batch = new ArrayList<>();
      for (int k = from; k < from + 2000; k++) {
        batch.add(event("k" + k, "2026-01-01T10:00:30Z", k));
      }
      assertThat(api.events("burst", array(batch.toArray(String[]::new))).get("accepted").asInt())
          .isEqualTo(2000);
    }
    try (PaneStream stream = api.panes("burst", "")) {
      api.watermark("burst", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      List<PaneStream.Received> got = stream.next(keys);
      assertThat(got).extracting(PaneStream.Received::type).containsOnly("pane");
      assertThat(got.stream().map(r -> r.data().get("key").asString()).distinct()).hasSize(keys);
      assertThat(got.stream().map(PaneStream.Received::id).toList())
          .doesNotHaveDuplicates()
          .isSortedAccordingTo(PaneEvent::compareIds);
    }
  }

  /** Last-Event-ID 0 is the whole log, read in pages of the page size, then live panes. */
  @Test
  void resumingFromTheStartReadsTheWholeLogThenGoesOnLive() {
    LiveApi api = LiveApi.on(port);
    api.define("from-start", LiveApi.EVERY_BATCH_SUM);
    int panes = 2500;
    List<String> batch = new ArrayList<>();
    for (int i = 0; i < panes; i++) {
      batch.add(event("k" + i, "2026-01-01T10:00:00Z", i));
    }
    api.events("from-start", array(batch.toArray(String[]::new)));
    try (PaneStream stream = api.resume("from-start", "0")) {
      List<PaneStream.Received> logged = stream.next(panes);
      assertThat(logged.stream().map(r -> r.data().get("value").asInt()))
          .containsExactlyInAnyOrderElementsOf(
              java.util.stream.IntStream.range(0, panes).boxed().toList());
      assertThat(logged.stream().map(PaneStream.Received::id).toList())
          .doesNotHaveDuplicates()
          .isSortedAccordingTo(PaneEvent::compareIds);
      api.events("from-start", array(event("late-comer", "2026-01-01T10:00:00Z", 7)));
      PaneStream.Received live = stream.next();
      assertThat(live.data().get("key").asString()).isEqualTo("late-comer");
      assertThat(PaneEvent.compareIds(live.id(), logged.get(panes - 1).id())).isPositive();
    }
  }

  /**
   * A snapshot taken while producers write: every window's result as of one log position, then
   * every change after it. Per window the pane indexes seen go up by one with none skipped or
   * repeated, and each window's final value arrives exactly once and is the sum of its events.
   */
  @Test
  void aSnapshotThenItsChangesUnderConcurrentIngestionHaveNoGapAndNoDuplicate() throws Exception {
    snapshotUnderConcurrentIngestion(LiveApi.on(port), 20);
  }

  /**
   * The scenario above for {@code keys} keys, six minutes each: with more windows than a pane
   * stream reads at once, the snapshot is read in pages while the producer writes.
   */
  static void snapshotUnderConcurrentIngestion(LiveApi api, int keys) throws Exception {
    api.define("snapshotted", ACCUMULATING_EARLY);
    int minutes = 6;
    int rounds = minutes * 5;
    Map<String, Double> sums = new HashMap<>();
    Instant start = Instant.parse("2026-01-01T10:00:00Z");
    CompletableFuture<Void> producer =
        CompletableFuture.runAsync(
            () -> {
              for (int r = 0; r < rounds; r++) {
                int minute = r / 5;
                List<String> batch = new ArrayList<>();
                for (int k = 0; k < keys; k++) {
                  Instant t = start.plusSeconds(60L * minute + r % 5);
                  batch.add(event("k" + k, t.toString(), r + k));
                  sums.merge(window("k" + k, t), (double) (r + k), Double::sum);
                }
                api.events("snapshotted", array(batch.toArray(String[]::new)));
                // Paced, so that the snapshot falls in the middle of the writes.
                pause(20);
                if (r % 5 == 4) {
                  api.watermark(
                      "snapshotted",
                      "{\"watermark\": \"" + start.plusSeconds(60L * (minute + 1)) + "\"}");
                }
              }
            });
    // Subscribe while the producer is mid-way.
    while (api.get("/pipelines/snapshotted/results").get("results").size() < keys * 2) {
      Thread.sleep(5);
    }
    try (PaneStream stream = api.panes("snapshotted", "snapshot=true")) {
      producer.get();
      Map<String, Integer> lastIndex = new HashMap<>();
      Map<String, Double> finals = new HashMap<>();
      Set<String> snapshotWindows = new HashSet<>();
      PaneStream.Received item = stream.next();
      while (item.type().equals("snapshot")) {
        JsonNode pane = item.data().get("pane");
        assertThat(item.id()).isNull();
        String w = window(pane);
        assertThat(snapshotWindows.add(w)).as("window %s twice in the snapshot", w).isTrue();
        see(pane, w, lastIndex, finals, true);
        item = stream.next();
      }
      assertThat(item.type()).isEqualTo("snapshot-end");
      assertThat(item.data().get("windows").asInt()).isEqualTo(snapshotWindows.size());
      assertThat(snapshotWindows).isNotEmpty();
      String position = item.id();
      assertThat(item.data().get("position").asString()).isEqualTo(position);
      int changes = 0;
      while (finals.size() < keys * minutes) {
        PaneStream.Received change = stream.next();
        changes++;
        assertThat(change.type()).isEqualTo("pane");
        assertThat(PaneEvent.compareIds(change.id(), position)).isPositive();
        position = change.id();
        see(change.data(), window(change.data()), lastIndex, finals, false);
      }
      assertThat(finals).isEqualTo(sums);
      // Both halves were exercised: some finals came in the snapshot, most after it.
      assertThat(changes).isPositive();
      assertThat(snapshotWindows.size()).isLessThan(keys * minutes);
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Checks a pane against what was seen of its window: the next index, at most one final. */
  private static void see(
      JsonNode pane,
      String window,
      Map<String, Integer> lastIndex,
      Map<String, Double> finals,
      boolean fromSnapshot) {
    int index = pane.at("/pane/index").asInt();
    Integer before = lastIndex.put(window, index);
    if (before != null || !fromSnapshot) {
      // A window first seen after the snapshot starts at index 0; one in it continues from it.
      assertThat(index).as("pane index of %s", window).isEqualTo(before == null ? 0 : before + 1);
    }
    assertThat(finals).as("%s after its final pane", window).doesNotContainKey(window);
    if (pane.get("final").asBoolean()) {
      finals.put(window, pane.get("value").asDouble());
    }
  }

  private static String window(String key, Instant t) {
    Instant startOfMinute = Instant.ofEpochSecond(t.getEpochSecond() / 60 * 60);
    return key + "@" + startOfMinute.toEpochMilli();
  }

  private static String window(JsonNode pane) {
    return pane.get("key").asString()
        + "@"
        + Instant.parse(pane.at("/window/start").asString()).toEpochMilli();
  }

  /** A session absorbed into another is announced, and its result is gone from a snapshot. */
  @Test
  void aMergedSessionIsAnnouncedAndLeavesTheSnapshot() {
    LiveApi api = LiveApi.on(port);
    api.define("merge-notice", LiveApi.SESSIONS);
    try (PaneStream stream = api.panes("merge-notice", "key=a")) {
      api.events("merge-notice", array(event("a", "2026-01-01T10:00:00Z", 1)));
      assertThat(stream.nextPane().at("/window/end").asString())
          .isEqualTo("2026-01-01T10:01:00.000Z");
      api.events("merge-notice", array(event("a", "2026-01-01T10:00:40Z", 2)));
      List<PaneStream.Received> next = stream.next(2);
      assertThat(next).extracting(PaneStream.Received::type).containsExactly("pane", "merge");
      assertThat(next.get(0).data().get("value").asDouble()).isEqualTo(3);
      JsonNode merge = next.get(1).data();
      assertThat(merge.get("key").asString()).isEqualTo("a");
      assertThat(merge.at("/window/end").asString()).isEqualTo("2026-01-01T10:01:00.000Z");
      assertThat(merge.at("/into/start").asString()).isEqualTo("2026-01-01T10:00:00.000Z");
      assertThat(merge.at("/into/end").asString()).isEqualTo("2026-01-01T10:01:40.000Z");
      assertThat(merge.get("merged").asBoolean()).isTrue();
    }
    try (PaneStream snapshot = api.panes("merge-notice", "snapshot=true")) {
      PaneStream.Received only = snapshot.next();
      assertThat(only.type()).isEqualTo("snapshot");
      assertThat(only.data().at("/pane/window/end").asString())
          .isEqualTo("2026-01-01T10:01:40.000Z");
      assertThat(snapshot.next().type()).isEqualTo("snapshot-end");
    }
  }

  /** A merge of a composite key's sessions shows the key as its panes do: an object. */
  @Test
  void aMergeOfACompositeKeyCarriesTheKeyAsAnObject() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "merge-composite",
        """
        {"window": {"type": "session", "gap": "1m"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating", "aggregate": {"type": "count"},
         "event": {"key": ["/shop", "/user"]}}
        """);
    try (PaneStream stream = api.panes("merge-composite", "")) {
      api.events(
          "merge-composite",
          "[{\"shop\": \"s1\", \"user\": \"ann\", \"timestamp\": \"2026-01-01T10:00:00Z\"}]");
      JsonNode first = stream.nextPane();
      api.events(
          "merge-composite",
          "[{\"shop\": \"s1\", \"user\": \"ann\", \"timestamp\": \"2026-01-01T10:00:40Z\"}]");
      List<PaneStream.Received> next = stream.next(2);
      assertThat(next).extracting(PaneStream.Received::type).containsExactly("pane", "merge");
      JsonNode merge = next.get(1).data();
      assertThat(merge.get("key")).isEqualTo(first.get("key"));
      assertThat(merge.get("key").toString()).isEqualTo("{\"shop\":\"s1\",\"user\":\"ann\"}");
      assertThat(merge.get("into")).isEqualTo(next.get(0).data().get("window"));
    }
  }

  /** The status of every pipeline, once as JSON and as a stream, from what the runtime knows. */
  @Test
  void theStatusSaysHowEachPipelineIsDoing() {
    LiveApi api = LiveApi.on(port);
    api.define("glance", ACCUMULATING_EARLY);
    api.events(
        "glance",
        array(event("a", "2026-01-01T10:00:01Z", 1), event("b", "2026-01-01T10:00:02Z", 2)));
    api.watermark("glance", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
    api.events("glance", array(event("a", "2026-01-01T10:00:03Z", 4)));
    try (PaneStream watching = api.panes("glance", "")) {
      JsonNode status = glance(api.get("/pipelines/status"));
      assertThat(status.get("state").asString()).isEqualTo("RUNNING");
      assertThat(status.get("inputWatermark").asString()).isEqualTo("2026-01-01T10:01:00.000Z");
      assertThat(status.get("watermarkLagSeconds").asDouble()).isPositive();
      assertThat(status.get("ingested").asLong()).isEqualTo(2);
      assertThat(status.get("dropped").asLong()).isEqualTo(1);
      assertThat(status.get("panes").asLong()).isEqualTo(4);
      assertThat(status.get("subscribers").asInt()).isEqualTo(1);
      List<ServerSentEvent<String>> events =
          WebClient.create("http://localhost:" + port)
              .get()
              .uri("/pipelines/status")
              .accept(MediaType.TEXT_EVENT_STREAM)
              .retrieve()
              .bodyToFlux(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
              .take(2)
              .collectList()
              .block(LiveApi.TIMEOUT);
      assertThat(events).extracting(ServerSentEvent::event).containsOnly("status");
      assertThat(
              glance(JsonMapper.shared().readTree(events.get(1).data())).get("ingested").asLong())
          .isEqualTo(2);
    }
  }

  private static JsonNode glance(JsonNode status) {
    return named(status, "glance");
  }

  /** The pipeline's entry in the status view. */
  private static JsonNode status(LiveApi api, String pipeline) {
    return named(api.get("/pipelines/status"), pipeline);
  }

  private static JsonNode named(JsonNode status, String pipeline) {
    for (JsonNode p : status.get("pipelines")) {
      if (p.get("name").asString().equals(pipeline)) {
        return p;
      }
    }
    throw new AssertionError("no " + pipeline + " in " + status);
  }

  /**
   * With allowed lateness and the default closing behaviour no pane closes a window: the stream's
   * progress says when it became final, and results, snapshots and the status answer final from
   * then on; until then {@code /windows} lists it as not final, with its finalAt, and then no more.
   */
  @Test
  void aWindowClosedWithoutAClosingPaneIsFinalOnceProgressPassesIt() {
    LiveApi api = LiveApi.on(port);
    api.define("finality", FINALITY);
    try (PaneStream stream = api.panes("finality", "")) {
      JsonNode opening = stream.nextProgress().data();
      assertThat(opening.get("finalThrough").asString()).isEqualTo("-inf");
      api.events("finality", array(event("a", "2026-01-01T10:00:30Z", 4)));
      api.watermark("finality", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      JsonNode onTime = stream.nextPane();
      assertThat(onTime.get("final").asBoolean()).isFalse();
      assertThat(onTime.get("finalAt").asString()).isEqualTo("2026-01-01T10:11:00.000Z");
      stream.progressThrough("2026-01-01T10:01:00.000Z");
      assertThat(api.get("/pipelines/finality/results").at("/results/0/final").asBoolean())
          .isFalse();
      JsonNode open = api.get("/pipelines/finality/windows").get("windows");
      assertThat(open).hasSize(1);
      assertThat(open.get(0).get("final").asBoolean()).isFalse();
      assertThat(open.get(0).get("closed").asBoolean()).isFalse();
      assertThat(open.get(0).get("finalAt").asString()).isEqualTo("2026-01-01T10:11:00.000Z");
      assertThat(status(api, "finality").get("finalThrough").asString())
          .isEqualTo("2026-01-01T10:01:00.000Z");

      api.watermark("finality", "{\"watermark\": \"2026-01-01T10:11:00Z\"}");
      JsonNode progress = stream.progressThrough("2026-01-01T10:11:00.000Z");
      assertThat(progress.get("watermark").asString()).isEqualTo("2026-01-01T10:11:00.000Z");
      assertThat(stream.drained()).as("no pane closes the window").isEmpty();
    }
    // Collected in the commit that made it final: no longer open, and final everywhere else.
    assertThat(api.get("/pipelines/finality/windows").get("windows")).isEmpty();
    assertThat(status(api, "finality").get("finalThrough").asString())
        .isEqualTo("2026-01-01T10:11:00.000Z");
    JsonNode results = api.get("/pipelines/finality/results");
    assertThat(results.get("finalThrough").asString()).isEqualTo("2026-01-01T10:11:00.000Z");
    assertThat(results.at("/results/0/final").asBoolean()).isTrue();
    assertThat(results.at("/results/0/value").asDouble()).isEqualTo(4);
    try (PaneStream snapshot = api.panes("finality", "snapshot=true&final=true")) {
      assertThat(snapshot.nextProgress().data().get("finalThrough").asString())
          .isEqualTo("2026-01-01T10:11:00.000Z");
      PaneStream.Received item = snapshot.next();
      assertThat(item.type()).isEqualTo("snapshot");
      assertThat(item.data().at("/pane/final").asBoolean()).isTrue();
      assertThat(snapshot.next().type()).isEqualTo("snapshot-end");
    }
  }

  /**
   * A window whose trigger has finished is final before it is collected: its last pane said so, and
   * {@code /windows} lists it final (closed) until the watermark reaches its finalAt.
   */
  @Test
  void aWindowWhoseTriggerFinishedIsListedFinalUntilItIsCollected() {
    LiveApi api = LiveApi.on(port);
    api.define(
        "finished",
        """
        {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT10M",
         "trigger": {"type": "afterWatermark"}, "aggregate": {"type": "sum"}}
        """);
    try (PaneStream stream = api.panes("finished", "")) {
      api.events("finished", array(event("a", "2026-01-01T10:00:30Z", 4)));
      api.watermark("finished", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      assertThat(stream.nextPane().get("final").asBoolean()).isTrue();
    }
    JsonNode closed = api.get("/pipelines/finished/windows?key=a").at("/windows/0");
    assertThat(closed.get("closed").asBoolean()).isTrue();
    assertThat(closed.get("final").asBoolean()).isTrue();
    assertThat(closed.get("finalAt").asString()).isEqualTo("2026-01-01T10:11:00.000Z");
    assertThat(api.get("/pipelines/finished/results").at("/results/0/final").asBoolean()).isTrue();
    api.watermark("finished", "{\"watermark\": \"2026-01-01T10:11:00Z\"}");
    assertThat(api.get("/pipelines/finished/windows").get("windows")).isEmpty();
  }

  /** A resumed stream opens with the progress now: never behind one the client saw before. */
  @Test
  void aResumedStreamOpensWithTheProgressNow() {
    LiveApi api = LiveApi.on(port);
    api.define("resumed-progress", FINALITY);
    String last;
    try (PaneStream stream = api.panes("resumed-progress", "")) {
      api.events("resumed-progress", array(event("a", "2026-01-01T10:00:30Z", 1)));
      api.watermark("resumed-progress", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      last = stream.next().id();
      stream.progressThrough("2026-01-01T10:01:00.000Z");
    }
    api.watermark("resumed-progress", "{\"watermark\": \"2026-01-01T10:30:00Z\"}");
    try (PaneStream resumed = api.resume("resumed-progress", last)) {
      assertThat(resumed.nextProgress().data().get("finalThrough").asString())
          .isEqualTo("2026-01-01T10:30:00.000Z");
    }
  }

  /** Results come in pages that continue each other, in window order. */
  @Test
  void resultsPageWithACursor() {
    LiveApi api = LiveApi.on(port);
    api.define("paged", LiveApi.EVERY_BATCH_SUM);
    List<String> batch = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      batch.add(event("k" + (i % 5), "2026-01-01T10:0" + (i / 5) + ":00Z", i));
    }
    api.events("paged", array(batch.toArray(String[]::new)));
    JsonNode all = api.get("/pipelines/paged/results").get("results");
    assertThat(all).hasSize(25);
    List<JsonNode> paged = new ArrayList<>();
    String query = "/pipelines/paged/results?limit=10";
    int pages = 0;
    while (query != null) {
      JsonNode page = api.get(query);
      page.get("results").forEach(paged::add);
      pages++;
      query =
          page.has("next")
              ? "/pipelines/paged/results?limit=10&after=" + page.get("next").asString()
              : null;
    }
    assertThat(pages).isEqualTo(3);
    assertThat(paged).containsExactlyElementsOf(all);
    JsonNode keyed = api.get("/pipelines/paged/results?key=k3&limit=2");
    assertThat(keyed.get("results")).hasSize(2);
    assertThat(keyed.has("next")).isTrue();
    api.send(
            org.springframework.http.HttpMethod.GET,
            "/pipelines/paged/results?after=nonsense",
            null,
            null)
        .expectProblem(400);
    api.send(
            org.springframework.http.HttpMethod.GET, "/pipelines/paged/results?limit=0", null, null)
        .expectProblem(400);
  }
}
