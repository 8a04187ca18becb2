package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.IngestBounds;
import io.eventide.core.KeyedWindow;
import io.eventide.core.MergedWindow;
import io.eventide.core.RenderedPane;
import io.eventide.core.render.PaneRecordWriter;
import io.eventide.definition.EventPointers;
import io.eventide.definition.KeyFields;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import io.eventide.sink.LogEntryKind;
import io.eventide.sink.LogPage;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PaneEvent;
import io.eventide.state.memory.MemoryStateStore;
import io.eventide.state.redis.RedisStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The read side that pane streams use, the same in both stores: the log in pages with its trimmed
 * bound, merges in the log, a snapshot consistent with its position, results in pages.
 */
class PaneLogStoresTest {
  private static final int RETENTION = 300;
  private static final OutputProperties OUTPUTS = TestRedis.outputProperties();

  private final String prefix = TestRedis.newKeyPrefix();
  private final List<LettuceConnectionFactory> factories = new ArrayList<>();

  @AfterEach
  void close() {
    factories.forEach(LettuceConnectionFactory::destroy);
    TestRedis.delete(prefix);
  }

  static Stream<String> stores() {
    return Stream.of("memory", "redis");
  }

  /**
   * How many results the first read by key of a pipeline walks before its own: the memory store
   * indexes its results by key only once a read needs it, Redis keeps the index from the start.
   */
  private static long indexingWalk(String kind, long results) {
    return kind.equals("memory") ? results : 0;
  }

  private StateStore store(String kind) {
    StateProperties state =
        TestRedis.stateProperties(
            kind.equals("memory") ? StateProperties.Store.MEMORY : StateProperties.Store.REDIS,
            prefix,
            RETENTION,
            Duration.ofSeconds(1));
    if (kind.equals("memory")) {
      return new MemoryStateStore(OUTPUTS, state);
    }
    LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.url());
    factories.add(factory);
    return new RedisStateStore(
        factory, OUTPUTS, state, IngestBounds.DEFAULT, TestRedis.marker(factory, prefix));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void theLogIsReadInPagesAndSaysWhenAPositionFellOutOfItsRetention(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("logged", "lineage", 1).join();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      ids.addAll(state.commit(commit(List.of(pane("k" + i, 0, false)), List.of())).join());
    }
    LogPage first = outputs.panesAfter("logged", LogPage.START, 40).block();
    assertThat(first.entries()).extracting(PaneEvent::id).isEqualTo(ids.subList(0, 40));
    assertThat(first.lostAfter(LogPage.START)).isFalse();
    assertThat(first.trimmed()).isZero();
    assertThat(first.end()).isEqualTo(ids.get(99));
    LogPage second = outputs.panesAfter("logged", ids.get(39), 1000).block();
    assertThat(second.entries()).extracting(PaneEvent::id).isEqualTo(ids.subList(40, 100));
    assertThat(second.lostAfter(ids.get(39))).isFalse();
    // After a held id, a page of exactly the limit; after the newest, nothing and nothing lost.
    LogPage limited = outputs.panesAfter("logged", ids.get(9), 40).block();
    assertThat(limited.entries()).extracting(PaneEvent::id).isEqualTo(ids.subList(10, 50));
    LogPage atEnd = outputs.panesAfter("logged", ids.get(99), 10).block();
    assertThat(atEnd.entries()).isEmpty();
    assertThat(atEnd.lostAfter(ids.get(99))).isFalse();
    // A position that was never an entry's id, before every entry: the whole log, nothing lost.
    LogPage fromBefore = outputs.panesAfter("logged", "0-1", 1000).block();
    assertThat(fromBefore.entries()).extracting(PaneEvent::id).isEqualTo(ids);
    assertThat(fromBefore.lostAfter("0-1")).isFalse();
    assertThat(outputs.panesAfter("logged", LogPage.START, 0).block().entries()).isEmpty();

    for (int i = 0; i < 3 * RETENTION; i++) {
      ids.addAll(state.commit(commit(List.of(pane("k" + i, 1, false)), List.of())).join());
    }
    LogPage trimmed = outputs.panesAfter("logged", ids.get(39), 10).block();
    assertThat(trimmed.lostAfter(ids.get(39))).isTrue();
    // The log keeps at least its retention (Redis trims whole nodes) and resumes after its bound.
    // The bound is an id or, across a millisecond, the last possible one before the first entry.
    int kept =
        (int)
            ids.stream()
                .filter(id -> PaneEvent.compareIds(id, trimmed.trimmedThrough()) <= 0)
                .count();
    assertThat(ids.size() - kept).isBetween(RETENTION, 2 * RETENTION);
    // What a forwarder counts its losses by: the entries up to and including the bound.
    assertThat(trimmed.trimmed()).isEqualTo(kept);
    LogPage resumed = outputs.panesAfter("logged", trimmed.trimmedThrough(), 10_000).block();
    assertThat(resumed.lostAfter(trimmed.trimmedThrough())).isFalse();
    assertThat(resumed.entries())
        .extracting(PaneEvent::id)
        .isEqualTo(ids.subList(kept, ids.size()));
    // After an id the trimmed log still holds: the rest of the log, nothing lost.
    LogPage afterHeld = outputs.panesAfter("logged", ids.get(kept), 10_000).block();
    assertThat(afterHeld.lostAfter(ids.get(kept))).isFalse();
    assertThat(afterHeld.entries())
        .extracting(PaneEvent::id)
        .isEqualTo(ids.subList(kept + 1, ids.size()));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void oneCommitOfManyMoreEntriesThanTheLogKeepsLeavesTheLogAtItsRetention(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("large", "lineage", 1).join();
    List<RenderedPane> panes = new ArrayList<>();
    // More than one trim of Redis's removes by default (100 nodes of 100 entries).
    for (int i = 0; i < 25_000; i++) {
      panes.add(pane("k" + i, 0, false));
    }
    List<String> ids = state.commit(commit(panes, List.of())).join();
    LogPage page = outputs.panesAfter("large", LogPage.START, 10_000).block();
    assertThat(page.lostAfter(LogPage.START)).isTrue();
    assertThat(ids.size() - page.trimmed()).isBetween((long) RETENTION, 2L * RETENTION);
    LogPage resumed = outputs.panesAfter("large", page.trimmedThrough(), 10_000).block();
    assertThat(resumed.entries())
        .extracting(PaneEvent::id)
        .isEqualTo(ids.subList((int) page.trimmed(), ids.size()));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void mergesAreLoggedAfterTheirCommitsPanesAndTheSnapshotMatchesItsPosition(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("merged", "lineage", 1).join();
    state.commit(commit(List.of(pane("a", 0, false), pane("b", 0, true)), List.of())).join();
    MergedWindow gone = merged("merged", new KeyedWindow("a", 0, 60_000), new Window(0, 90_000));
    List<String> ids =
        state
            .commit(
                new Commit(
                    List.of(),
                    null,
                    List.of(rendered(new Window(0, 90_000), "a", 0, false)),
                    List.of(gone),
                    List.of()))
            .join();
    OutputStore.Snapshot snapshot = outputs.snapshot("merged", null, null, 100).block();
    List<PaneEvent> log = outputs.panesAfter("merged", LogPage.START, 100).block().entries();
    assertThat(log)
        .extracting(PaneEvent::kind)
        .containsExactly(
            LogEntryKind.PANE, LogEntryKind.PANE, LogEntryKind.PANE, LogEntryKind.MERGE);
    assertThat(log.get(2).id()).isEqualTo(ids.get(0));
    assertThat(log.get(3).key()).isEqualTo("a");
    assertThat(log.get(3).json())
        .isEqualTo(
            "{\"pipeline\":\"merged\",\"key\":\"a\","
                + "\"window\":{\"start\":\"1970-01-01T00:00:00.000Z\",\"end\":\"1970-01-01T00:01:00.000Z\"},"
                + "\"into\":{\"start\":\"1970-01-01T00:00:00.000Z\",\"end\":\"1970-01-01T00:01:30.000Z\"},"
                + "\"merged\":true}");
    assertThat(snapshot.position()).isEqualTo(log.get(3).id());
    assertThat(snapshot.windows())
        .extracting(PaneEvent::key, PaneEvent::kind, PaneEvent::last, PaneEvent::id)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "a", LogEntryKind.SNAPSHOT, false, snapshot.position()),
            org.assertj.core.groups.Tuple.tuple(
                "b", LogEntryKind.SNAPSHOT, true, snapshot.position()));
    assertThat(
            snapshot.windows().stream().filter(w -> w.key().equals("a")).findFirst().get().json())
        .contains("\"end\":\"1970-01-01T00:01:30.000Z\"");
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aWindowClosedWithoutAPaneHasItsResultLoggedAgainAsFinalAfterTheCommitsPanes(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("finals", "lineage", 1).join();
    state.commit(commit(List.of(pane("a", 0, false)), List.of())).join();
    // In one commit: a's next pane, then a closing, and a window without a result closing.
    RenderedPane next = pane("a", 1, false);
    state
        .commit(
            new Commit(
                List.of(),
                null,
                null,
                List.of(next),
                List.of(),
                List.of(new KeyedWindow("a", 0, 60_000), new KeyedWindow("b", 0, 60_000)),
                List.of(),
                null,
                null,
                null))
        .join();
    List<PaneEvent> log = outputs.panesAfter("finals", LogPage.START, 100).block().entries();
    assertThat(log)
        .extracting(PaneEvent::kind)
        .containsExactly(LogEntryKind.PANE, LogEntryKind.PANE, LogEntryKind.FINAL);
    PaneEvent again = log.get(2);
    assertThat(again.key()).isEqualTo("a");
    assertThat(again.last()).isTrue();
    assertThat(again.json()).isEqualTo(next.json());
  }

  /**
   * A traced commit's panes and finals carry its span in the log, for the Kafka sink
   * (docs/operations.md#pane-records); a commit that was not traced leaves none.
   */
  @ParameterizedTest
  @MethodSource("stores")
  void aTracedCommitsPanesAndFinalsCarryItsSpanAndNoOthers(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("traced", "lineage", 1).join();
    String span = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    state.commit(commit(List.of(pane("a", 0, false)), List.of()).traced(span)).join();
    state
        .commit(
            new Commit(
                    List.of(),
                    null,
                    null,
                    List.of(pane("b", 0, false)),
                    List.of(),
                    List.of(new KeyedWindow("a", 0, 60_000)),
                    List.of(),
                    null,
                    null,
                    null)
                .traced(span))
        .join();
    state.commit(commit(List.of(pane("a", 1, false)), List.of())).join();
    List<PaneEvent> log = outputs.panesAfter("traced", LogPage.START, 100).block().entries();
    assertThat(log)
        .extracting(PaneEvent::kind)
        .containsExactly(
            LogEntryKind.PANE, LogEntryKind.PANE, LogEntryKind.FINAL, LogEntryKind.PANE);
    assertThat(log).extracting(PaneEvent::traceparent).containsExactly(span, span, span, null);
    // A read after a position (a native read in Redis) finds the same.
    assertThat(outputs.panesAfter("traced", log.get(0).id(), 100).block().entries())
        .extracting(PaneEvent::traceparent)
        .containsExactly(span, span, null);
  }

  @ParameterizedTest
  @MethodSource("stores")
  void resultsComeInPagesThatContinueEachOther(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("paged", "lineage", 1).join();
    List<RenderedPane> panes = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      panes.add(rendered(new Window(60_000L * (i % 4), 60_000L * (i % 4 + 1)), "k" + i, 0, false));
    }
    state.commit(new Commit(List.of(), null, panes, List.of(), List.of())).join();
    BiFunction<KeyedWindow, Integer, OutputStore.ResultsPage> page =
        (after, limit) ->
            outputs.results("paged", null, Long.MIN_VALUE, Long.MAX_VALUE, after, limit).block();
    List<String> all =
        page.apply(null, 100).records().stream().map(r -> r.get("key").asString()).toList();
    assertThat(all).hasSize(23);
    List<String> paged = new ArrayList<>();
    KeyedWindow after = null;
    int pages = 0;
    do {
      OutputStore.ResultsPage p = page.apply(after, 5);
      p.records().forEach(r -> paged.add(r.get("key").asString()));
      after = p.next();
      pages++;
    } while (after != null);
    assertThat(pages).isEqualTo(5);
    assertThat(paged).isEqualTo(all);
    OutputStore.ResultsPage windowsFrom2m =
        outputs.results("paged", null, 120_001, Long.MAX_VALUE, null, 100).block();
    assertThat(windowsFrom2m.records())
        .allSatisfy(
            r ->
                assertThat(r.at("/window/start").asString())
                    .isGreaterThanOrEqualTo("1970-01-01T00:02"));
  }

  @ParameterizedTest
  @MethodSource("stores")
  void resultsKeepEachWindowsHighestPaneAndForgetTheEarliestWindowsPastTheLimit(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("kept", "lineage", 1).join();
    // A read by key first, so that the index by key is kept through the commits that follow.
    assertThat(
            outputs.results("kept", "k", Long.MIN_VALUE, Long.MAX_VALUE, null, 1).block().records())
        .isEmpty();
    int windows = OUTPUTS.resultsPerPipeline() + 200;
    java.util.Random random = new java.util.Random(7);
    // Each window's panes 0..3 in a random order, spread over random commits.
    List<RenderedPane> pending = new ArrayList<>();
    for (int w = 0; w < windows; w++) {
      List<Integer> indexes = new ArrayList<>(List.of(0, 1, 2, 3));
      java.util.Collections.shuffle(indexes, random);
      for (int index : indexes) {
        pending.add(rendered(new Window(60_000L * w, 60_000L * (w + 1)), "k", index, false));
      }
    }
    java.util.Collections.shuffle(pending, random);
    for (int from = 0; from < pending.size(); ) {
      int to = Math.min(pending.size(), from + 1 + random.nextInt(300));
      state.commit(commit(pending.subList(from, to), List.of())).join();
      from = to;
    }
    MergedWindow mergedAway =
        merged(
            "kept",
            new KeyedWindow("k", 60_000L * (windows - 1), 60_000L * windows),
            new Window(60_000L * (windows - 1), 60_000L * windows + 1));
    state.commit(commit(List.of(), List.of(mergedAway))).join();
    List<JsonNode> kept =
        outputs
            .results("kept", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10 * windows)
            .block()
            .records();
    // The earliest windows went past the limit, the merged one is gone; each holds its last pane.
    assertThat(kept).hasSize(OUTPUTS.resultsPerPipeline() - 1);
    // The key's own index forgot them too, and a read of the key visits only what is kept.
    long visited = outputs.resultsVisited();
    assertThat(
            outputs
                .results("kept", "k", Long.MIN_VALUE, Long.MAX_VALUE, null, 10 * windows)
                .block()
                .records())
        .isEqualTo(kept);
    assertThat(outputs.resultsVisited() - visited).isEqualTo(kept.size());
    for (int i = 0; i < kept.size(); i++) {
      long start = 60_000L * (windows - OUTPUTS.resultsPerPipeline() + i);
      assertThat(kept.get(i).at("/window/start").asString())
          .isEqualTo(java.time.Instant.ofEpochMilli(start).toString().replace("Z", ".000Z"));
      assertThat(kept.get(i).at("/pane/index").asInt()).isEqualTo(3);
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aKeysResultsAreItsOwnInWindowOrderWhateverItsCharactersAndTimes(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("keyed", "lineage", 1).join();
    // Keys that are prefixes of one another (up to '@', NUL or nothing), NULs, the empty key,
    // characters beyond the BMP and in the private use area; windows before 1970 and around 0.
    List<String> keys =
        List.of("a", "a@b", "a\u0000", "a\u0000b", "\u0000", "", "ab", "\uD83D\uDE00", "\uE000");
    List<Window> windows =
        List.of(
            new Window(-180_000, -120_000),
            new Window(-60_000, 0),
            new Window(0, 60_000),
            new Window(60_000, 120_000),
            new Window(1_767_225_600_000L, 1_767_225_660_000L));
    List<RenderedPane> panes = new ArrayList<>();
    for (String key : keys) {
      for (int w = windows.size() - 1; w >= 0; w--) {
        panes.add(rendered(windows.get(w), key, 0, false));
      }
    }
    state.commit(commit(panes, List.of())).join();
    for (String key : keys) {
      List<String> starts = new ArrayList<>();
      KeyedWindow after = null;
      do {
        OutputStore.ResultsPage page =
            outputs.results("keyed", key, Long.MIN_VALUE, Long.MAX_VALUE, after, 2).block();
        page.records()
            .forEach(
                r -> {
                  assertThat(r.get("key").asString()).isEqualTo(key);
                  starts.add(r.at("/window/start").asString());
                });
        after = page.next();
      } while (after != null);
      assertThat(starts)
          .as("key %s", key)
          .containsExactly(
              windows.stream().map(w -> Timestamps.format(w.start())).toArray(String[]::new));
      // Windows ending after a time: the two before 1970, the one ending at 0 among them, are not.
      assertThat(outputs.results("keyed", key, 0, Long.MAX_VALUE, null, 10).block().records())
          .hasSize(3);
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void aReadOfOneKeyOrOfLateWindowsGoesThroughLittleMoreThanWhatItReturns(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("indexed", "lineage", 1).join();
    // As many results as the store keeps: 100 keys of 10 minutes each.
    List<RenderedPane> panes = new ArrayList<>();
    for (int w = 0; w < 10; w++) {
      for (int k = 0; k < 100; k++) {
        panes.add(rendered(new Window(60_000L * w, 60_000L * (w + 1)), "k" + k, 0, false));
      }
    }
    state.commit(commit(panes, List.of())).join();

    long before = outputs.resultsVisited();
    OutputStore.ResultsPage first =
        outputs.results("indexed", "k3", Long.MIN_VALUE, Long.MAX_VALUE, null, 100).block();
    assertThat(first.records()).extracting(r -> r.get("key").asString()).containsOnly("k3");
    assertThat(first.records()).hasSize(10);
    assertThat(outputs.resultsVisited() - before)
        .isLessThanOrEqualTo(indexingWalk(kind, panes.size()) + 11);

    // Later reads of a key go through its windows only, the index kept up by the commits.
    state
        .commit(commit(List.of(rendered(new Window(0, 60_000L), "k7", 1, false)), List.of()))
        .join();
    before = outputs.resultsVisited();
    OutputStore.ResultsPage one =
        outputs.results("indexed", "k7", Long.MIN_VALUE, Long.MAX_VALUE, null, 100).block();
    assertThat(one.records()).extracting(r -> r.get("key").asString()).containsOnly("k7");
    assertThat(one.records()).hasSize(10);
    assertThat(one.records().get(0).at("/pane/index").asInt()).isEqualTo(1);
    assertThat(outputs.resultsVisited() - before).isLessThanOrEqualTo(11);

    before = outputs.resultsVisited();
    OutputStore.ResultsPage late =
        outputs.results("indexed", null, 9 * 60_000L, Long.MAX_VALUE, null, 1000).block();
    assertThat(late.records())
        .hasSize(100)
        .allSatisfy(r -> assertThat(r.at("/window/start").asString()).contains("T00:09"));
    assertThat(outputs.resultsVisited() - before).isLessThanOrEqualTo(101);

    before = outputs.resultsVisited();
    OutputStore.ResultsPage lateOfOne =
        outputs.results("indexed", "k7", 8 * 60_000L + 1, Long.MAX_VALUE, null, 1).block();
    assertThat(lateOfOne.records()).hasSize(1);
    assertThat(lateOfOne.records().get(0).at("/window/start").asString()).contains("T00:08");
    assertThat(lateOfOne.next()).isEqualTo(new KeyedWindow("k7", 8 * 60_000L, 9 * 60_000L));
    assertThat(outputs.resultsVisited() - before).isLessThanOrEqualTo(3);

    // After a window that has left the results, among 100 windows of its start.
    before = outputs.resultsVisited();
    OutputStore.ResultsPage afterGone =
        outputs
            .results(
                "indexed",
                null,
                Long.MIN_VALUE,
                Long.MAX_VALUE,
                new KeyedWindow("k50x", 9 * 60_000L, 10 * 60_000L),
                1)
            .block();
    assertThat(afterGone.records()).hasSize(1);
    assertThat(outputs.resultsVisited() - before).isLessThanOrEqualTo(12);

    // A snapshot page of one key reads that key's windows, from after the cursor.
    before = outputs.resultsVisited();
    OutputStore.Snapshot snapshot =
        outputs.snapshot("indexed", "k7", new KeyedWindow("k7", 0, 60_000), 4).block();
    assertThat(snapshot.windows()).hasSize(4).extracting(PaneEvent::key).containsOnly("k7");
    assertThat(snapshot.next()).isEqualTo(new KeyedWindow("k7", 4 * 60_000L, 5 * 60_000L));
    assertThat(outputs.resultsVisited() - before).isLessThanOrEqualTo(5);
  }

  @ParameterizedTest
  @MethodSource("stores")
  void readsOfOneKeyAgreeWithAWalkAsCommitsAddUpdateEvictAndMergeAwayResultsAroundThem(
      String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("churned", "lineage", 1).join();
    java.util.Random random = new java.util.Random(23);
    List<String> keys = List.of("a", "ab", "b", "k1", "k10");
    boolean indexed = false;
    // Windows move on as in a live pipeline, so that the earliest are evicted past the limit (1000
    // results here), while some are merged away; the keys are read between commits.
    for (int round = 0; round < 60; round++) {
      List<RenderedPane> panes = new ArrayList<>();
      List<MergedWindow> gone = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        long start = 60_000L * (round * 4 + random.nextInt(12));
        long length = 60_000L * (1 + random.nextInt(3));
        String key = keys.get(random.nextInt(keys.size()));
        if (random.nextInt(10) == 0) {
          gone.add(
              merged(
                  "churned",
                  new KeyedWindow(key, start, start + length),
                  new Window(start, start + length + 1)));
        } else {
          panes.add(rendered(new Window(start, start + length), key, random.nextInt(3), false));
        }
      }
      state.commit(commit(panes, gone)).join();
      if (random.nextInt(4) != 0) {
        continue;
      }
      List<JsonNode> all =
          outputs
              .results("churned", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10_000)
              .block()
              .records();
      for (String key : keys) {
        long visited = outputs.resultsVisited();
        List<JsonNode> read =
            outputs
                .results("churned", key, Long.MIN_VALUE, Long.MAX_VALUE, null, 10_000)
                .block()
                .records();
        assertThat(read)
            .as("round %d, key %s", round, key)
            .isEqualTo(all.stream().filter(r -> r.get("key").asString().equals(key)).toList());
        assertThat(outputs.resultsVisited() - visited)
            .isEqualTo((indexed ? 0 : indexingWalk(kind, all.size())) + read.size());
        indexed = true;
      }
    }
  }

  @ParameterizedTest
  @MethodSource("stores")
  void filteredReadsAnswerWhatAWalkOfEveryResultFindsPageByPage(String kind) {
    StateStore store = store(kind);
    OutputStore outputs = (OutputStore) store;
    PipelineState state = store.open("filtered", "lineage", 1).join();
    java.util.Random random = new java.util.Random(11);
    // Keys that begin one another or hold the field's separators, windows before the epoch, long
    // sessions next to short windows, and the global window.
    List<String> keys = List.of("a", "ab", "a@b", "a@1/2", "b", "k1", "k10", "");
    List<RenderedPane> panes = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      long start = 60_000L * (random.nextInt(40) - 10);
      long length = random.nextInt(5) == 0 ? 60_000L * (1 + random.nextInt(30)) : 60_000L;
      panes.add(
          rendered(
              new Window(start, start + length), keys.get(random.nextInt(keys.size())), 0, false));
    }
    panes.add(rendered(Window.GLOBAL, "ab", 0, false));
    state.commit(commit(panes, List.of())).join();
    List<JsonNode> all =
        outputs
            .results("filtered", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10_000)
            .block()
            .records();
    for (int q = 0; q < 60; q++) {
      String key = random.nextBoolean() ? null : keys.get(random.nextInt(keys.size()));
      long from = random.nextBoolean() ? Long.MIN_VALUE : 60_000L * (random.nextInt(50) - 12) + 1;
      long to = random.nextBoolean() ? Long.MAX_VALUE : from + 60_000L * random.nextInt(20);
      List<String> expected =
          all.stream()
              .filter(r -> key == null || r.get("key").asString().equals(key))
              .filter(r -> end(r) > from && start(r) < to)
              .map(JsonNode::toString)
              .toList();
      List<String> paged = new ArrayList<>();
      KeyedWindow after = null;
      do {
        OutputStore.ResultsPage p =
            outputs.results("filtered", key, from, to, after, 1 + random.nextInt(7)).block();
        p.records().forEach(r -> paged.add(r.toString()));
        after = p.next();
      } while (after != null);
      assertThat(paged).as("key %s from %d to %d", key, from, to).isEqualTo(expected);
    }
    // After windows that are no results, in the store's order.
    List<KeyedWindow> windows =
        all.stream().map(r -> new KeyedWindow(r.get("key").asString(), start(r), end(r))).toList();
    assertThat(windows).isSortedAccordingTo(outputs.windowOrder());
    for (int q = 0; q < 30; q++) {
      KeyedWindow gone =
          new KeyedWindow(
              keys.get(random.nextInt(keys.size())) + "~",
              60_000L * (random.nextInt(40) - 10),
              60_000L * random.nextInt(40));
      List<String> expected =
          all.stream()
              .filter(
                  r ->
                      outputs
                              .windowOrder()
                              .compare(
                                  new KeyedWindow(r.get("key").asString(), start(r), end(r)), gone)
                          > 0)
              .limit(5)
              .map(JsonNode::toString)
              .toList();
      assertThat(
              outputs
                  .results("filtered", null, Long.MIN_VALUE, Long.MAX_VALUE, gone, 5)
                  .block()
                  .records()
                  .stream()
                  .map(JsonNode::toString)
                  .toList())
          .as("after %s", gone)
          .isEqualTo(expected);
    }
    // The snapshot in pages is every result once, in the same order.
    List<String> snapshot = new ArrayList<>();
    KeyedWindow after = null;
    do {
      OutputStore.Snapshot p = outputs.snapshot("filtered", null, after, 13).block();
      assertThat(p.windows()).hasSizeLessThanOrEqualTo(13);
      p.windows().forEach(w -> snapshot.add(JsonMapper.shared().readTree(w.json()).toString()));
      after = p.next();
    } while (after != null);
    assertThat(snapshot).isEqualTo(all.stream().map(JsonNode::toString).toList());
  }

  private static long start(JsonNode record) {
    return record.at("/window/global").asBoolean()
        ? Window.GLOBAL.start()
        : java.time.Instant.parse(record.at("/window/start").asString()).toEpochMilli();
  }

  private static long end(JsonNode record) {
    return record.at("/window/global").asBoolean()
        ? Window.GLOBAL.end()
        : java.time.Instant.parse(record.at("/window/end").asString()).toEpochMilli();
  }

  private static MergedWindow merged(String pipeline, KeyedWindow gone, Window into) {
    return new MergedWindow(
        gone,
        new PaneRecordWriter(pipeline, EventPointers.DEFAULT.keyFields())
            .writeMerge(gone.key(), new Window(gone.start(), gone.end()), into));
  }

  private static Commit commit(List<RenderedPane> panes, List<MergedWindow> merged) {
    return new Commit(List.of(), null, panes, merged, List.of());
  }

  private static RenderedPane pane(String key, int index, boolean last) {
    return rendered(new Window(0, 60_000), key, index, last);
  }

  private static RenderedPane rendered(Window window, String key, int index, boolean last) {
    Pane pane =
        new Pane(
            key,
            window,
            (long) index,
            null,
            window.end() - 1,
            new PaneInfo(index, -1, last ? Timing.ON_TIME : Timing.EARLY, index == 0, last),
            false,
            -1,
            window.end(),
            0,
            0);
    return new RenderedPane(
        pane, new PaneRecordWriter("p", new KeyFields(List.of("/key"))).write(pane));
  }
}
