package io.eventide.api;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * Reads in pages of a few windows: a pane stream's snapshot and {@code /windows}, each window once
 * across the pages, and a snapshot taken while producers write still without gap or repeat.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.runtime.tick=20ms",
      "eventide.runtime.shards=4",
      "eventide.outputs.sse-heartbeat=250ms",
      "eventide.outputs.sse-poll=200ms",
      "eventide.outputs.sse-page-size=" + SnapshotPagingTest.PAGE
    })
class SnapshotPagingTest {
  static final int PAGE = 16;

  /** A pane for every batch, and windows kept open for an hour past the watermark. */
  private static final String SUMS =
      """
      {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT1H",
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "aggregate": {"type": "sum"}}
      """;

  @LocalServerPort int port;

  @Test
  void aSnapshotOfManyPagesWhileProducersWriteHasNoGapAndNoRepeat() throws Exception {
    // 60 keys of six minutes: the snapshot is read in many pages while the producer writes.
    PaneLogStreamTest.snapshotUnderConcurrentIngestion(LiveApi.on(port), 60);
  }

  @Test
  void aSnapshotOfManyPagesSendsEveryMatchingWindowOnce() {
    LiveApi api = LiveApi.on(port);
    api.define("many", SUMS);
    api.events("many", array(events(50, 3).toArray(String[]::new)));
    try (PaneStream stream = api.panes("many", "snapshot=true")) {
      Set<String> seen = new HashSet<>();
      PaneStream.Received item = stream.next();
      while (item.type().equals("snapshot")) {
        assertThat(seen.add(window(item.data().get("pane")))).as("%s twice", item.data()).isTrue();
        item = stream.next();
      }
      assertThat(item.type()).isEqualTo("snapshot-end");
      assertThat(item.data().get("windows").asInt()).isEqualTo(150);
      assertThat(seen).hasSize(150);
    }
    // With a key, that key's windows only.
    try (PaneStream stream = api.panes("many", "snapshot=true&key=k7")) {
      List<PaneStream.Received> got = stream.next(4);
      assertThat(got.subList(0, 3))
          .extracting(r -> r.data().at("/pane/key").asString())
          .containsOnly("k7");
      assertThat(got.get(3).type()).isEqualTo("snapshot-end");
    }
  }

  @Test
  void openWindowsComeInPagesThatContinueEachOtherAndABadPageIsRefused() {
    LiveApi api = LiveApi.on(port);
    api.define("open", SUMS);
    api.events("open", array(events(40, 2).toArray(String[]::new)));
    List<String> seen = new ArrayList<>();
    String next = null;
    int pages = 0;
    do {
      JsonNode page =
          api.get("/pipelines/open/windows?limit=7" + (next == null ? "" : "&after=" + next));
      assertThat(page.get("windows").size()).isLessThanOrEqualTo(7);
      page.get("windows").forEach(w -> seen.add(window(w)));
      next = page.has("next") ? page.get("next").asString() : null;
      pages++;
    } while (next != null);
    assertThat(seen).hasSize(80).doesNotHaveDuplicates();
    assertThat(pages).isEqualTo(12);
    // In key and window order, as one page of them all has them.
    JsonNode all = api.get("/pipelines/open/windows?limit=1000");
    List<String> whole = new ArrayList<>();
    all.get("windows").forEach(w -> whole.add(window(w)));
    assertThat(seen).isEqualTo(whole);
    assertThat(all.has("next")).isFalse();
    // The default page is 100 windows.
    assertThat(api.get("/pipelines/open/windows").get("windows")).hasSize(80);
    assertThat(api.get("/pipelines/open/windows?key=k3").get("windows")).hasSize(2);

    for (String bad : List.of("limit=0", "limit=1001", "after=%2A%2A", "after=bm9jb2xvbnM")) {
      LiveApi.Reply reply =
          api.send(HttpMethod.GET, "/pipelines/open/windows?" + bad, null, null).expectProblem(400);
      assertThat(reply.body().toString()).contains(bad.substring(0, bad.indexOf('=')));
    }
  }

  private static List<String> events(int keys, int minutes) {
    List<String> events = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      for (int m = 0; m < minutes; m++) {
        events.add(event("k" + k, "2026-01-01T10:0" + m + ":30Z", 1));
      }
    }
    return events;
  }

  /** A pane record's or an open window's key and start. */
  private static String window(JsonNode record) {
    return record.get("key") + "@" + record.at("/window/start").asString();
  }
}
