package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.DeadLetter;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardChanges;
import io.eventide.core.ShardSnapshot;
import io.eventide.core.render.PaneRecordWriter;
import io.eventide.definition.EventPointers;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import io.eventide.state.redis.RedisStateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import tools.jackson.databind.JsonNode;

/**
 * The latest pane per window in Redis is decided by pane index, in the store itself: panes of one
 * window committed in every order leave the pane with the highest index, never a delayed earlier
 * one.
 */
class VersionedResultsTest {
  private static final Window WINDOW = new Window(0, 60_000);

  private final String prefix = TestRedis.newKeyPrefix();
  private LettuceConnectionFactory factory;
  private RedisStateStore store;

  @BeforeEach
  void connect() {
    factory = TestRedis.connectionFactory(TestRedis.url());
    store = TestRedis.store(factory, prefix);
  }

  @AfterEach
  void close() {
    factory.destroy();
    TestRedis.delete(prefix);
  }

  @Test
  void panesCommittedInAnyOrderLeaveTheHighestPaneIndex() {
    Random random = new Random(7);
    for (int round = 0; round < 20; round++) {
      String pipeline = "order-" + round;
      List<Integer> indexes = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        indexes.add(i);
      }
      Collections.shuffle(indexes, random);
      // One owner commits one after another, as a runtime does; the panes come in any order.
      PipelineState state = store.open(pipeline, "lineage", 1).join();
      for (int index : indexes) {
        commit(state, pipeline, index).join();
      }
      List<JsonNode> results =
          store
              .results(pipeline, null, Long.MIN_VALUE, Long.MAX_VALUE, null, 100)
              .block()
              .records();
      assertThat(results).hasSize(1);
      assertThat(results.get(0).at("/pane/index").asInt()).isEqualTo(39);
      assertThat(results.get(0).get("value").asInt()).isEqualTo(39);
      // Every pane is in the log, whatever the order they got there.
      assertThat(store.panesAfter(pipeline, "0", 100).block().entries()).hasSize(40);
    }
  }

  @Test
  void aDeadLetterOfAHugeLineIsStoredWithTheStartOfItsEventOnly() {
    PipelineState state = store.open("letters", "lineage", 1).join();
    String line = "y".repeat(200_000);
    state
        .commit(
            new Commit(
                List.of(),
                null,
                List.of(),
                List.of(),
                List.of(DeadLetter.unreadable("letters", line, "the line is not JSON", 0))))
        .join();
    JsonNode letter = store.deadLetters("letters", 1).block().get(0);
    assertThat(letter.get("event").asString()).hasSize(DeadLetter.MAX_EVENT_CHARS);
    assertThat(letter.get("truncated").asBoolean()).isTrue();
    assertThat(letter.get("eventLength").asInt()).isEqualTo(200_000);
  }

  @Test
  void oneLargeCommitWritesEveryKeyAndKeepsTheHighestIndexOfAWindowItCarriesTwice() {
    PipelineState state = store.open("large", "lineage", 1).join();
    java.util.Map<String, byte[]> changed = new java.util.LinkedHashMap<>();
    java.util.Map<String, Long> ids = new java.util.LinkedHashMap<>();
    for (int i = 0; i < 2500; i++) {
      changed.put("key-" + i, new byte[] {1, (byte) i});
      ids.put("id-" + i, 1000L + i);
    }
    state
        .commit(
            new Commit(
                List.of(new ShardChanges(0, changed, List.of(), List.of(), ids, 1100L)),
                null,
                List.of(rendered("large", 2), rendered("large", 1)),
                List.of(),
                List.of()))
        .join();
    PipelineState reopened = store.open("large", "lineage", 7).join();
    assertThat(reopened.shardCount()).isEqualTo(1);
    ShardSnapshot shard = reopened.shard(0);
    assertThat(shard.keys()).hasSize(2500);
    assertThat(shard.keys().get("key-7")).containsExactly(1, 7);
    // Ids whose expiry the watermark passed are gone with the same commit.
    assertThat(shard.ids()).hasSize(2400).containsEntry("id-100", 1100L);
    assertThat(shard.watermark()).isEqualTo(1100L);
    assertThat(
            store
                .results("large", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10)
                .block()
                .records()
                .get(0)
                .at("/pane/index")
                .asInt())
        .isEqualTo(2);
  }

  @Test
  void anOwnerFencedByALaterOneCanNoLongerCommit() {
    PipelineState first = store.open("fenced", "lineage", 1).join();
    PipelineState second = store.open("fenced", "lineage", 1).join();
    assertThat(commit(second, "fenced", 0)).succeedsWithin(Duration.ofSeconds(5));
    assertThat(commit(first, "fenced", 1))
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableThat()
        .havingRootCause()
        .withMessageContaining("FENCED");
    assertThat(
            store
                .results("fenced", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10)
                .block()
                .records()
                .get(0)
                .at("/pane/index")
                .asInt())
        .isZero();
  }

  @Test
  void stateOfOneLineageOpensForNoOtherAndAReleasedOpenLeavesNothing() {
    PipelineState first = store.open("lineages", "first", 1).join();
    assertThat(commit(first, "lineages", 0)).succeedsWithin(Duration.ofSeconds(5));
    assertThat(store.open("lineages", "second", 1))
        .failsWithin(Duration.ofSeconds(5))
        .withThrowableThat()
        .havingRootCause()
        .isInstanceOf(StaleLineageException.class);

    store.drop("lineages").join();
    store.open("lineages", "first", 1).join().release().join();
    assertThat(store.hasState("lineages").join()).isFalse();
  }

  @Test
  void resultsAsAnEarlierVersionKeptThemAreUpgradedOnceAndReadByKey() {
    // As the version before kept them: fields as members of the order, a sorted set per key, the
    // span; no set by key, no extent. Two keys, one a prefix of the other up to its '@'.
    String base = prefix + ":{upgraded}:";
    RenderedPane k = rendered("upgraded", "k", 0);
    RenderedPane other = rendered("upgraded", "k@x", 0);
    TestRedis.call(
        redis -> {
          for (RenderedPane r : List.of(k, other)) {
            String field = r.pane().key() + "@0/60000";
            redis.hset(base + "results", field, r.json());
            redis.hset(base + "results:index", field, "0");
            redis.zadd(base + "results:order", 0, field);
            redis.zadd(base + "results:key:" + r.pane().key(), 0, field);
          }
          return redis.set(base + "results:span", "60000");
        });
    assertThat(readKey("upgraded"))
        .hasSize(1)
        .allSatisfy(r -> assertThat(r.get("key").asString()).isEqualTo("k"));
    assertThat(
            store
                .results("upgraded", "k@x", WINDOW.end() - 1, Long.MAX_VALUE, null, 10)
                .block()
                .records())
        .hasSize(1);
    Long earlierLeft =
        TestRedis.call(
            redis ->
                redis.exists(
                    base + "results:key:k", base + "results:key:k@x", base + "results:span"));
    assertThat(earlierLeft).isZero();
    String extent = TestRedis.call(redis -> redis.get(base + "results:extent"));
    assertThat(extent).isEqualTo("60000");
    // A commit of this version goes on from there: a later pane of the window replaces its result.
    PipelineState state = store.open("upgraded", "lineage", 1).join();
    commit(state, "upgraded", 1).join();
    assertThat(readKey("upgraded"))
        .singleElement()
        .satisfies(r -> assertThat(r.at("/pane/index").asInt()).isEqualTo(1));
    assertThat(
            store
                .results("upgraded", null, Long.MIN_VALUE, Long.MAX_VALUE, null, 10)
                .block()
                .records())
        .hasSize(2);
  }

  private List<JsonNode> readKey(String pipeline) {
    return store.results(pipeline, "k", Long.MIN_VALUE, Long.MAX_VALUE, null, 10).block().records();
  }

  private static CompletableFuture<List<String>> commit(
      PipelineState state, String pipeline, int index) {
    return state.commit(
        new Commit(List.of(), null, List.of(rendered(pipeline, index)), List.of(), List.of()));
  }

  private static RenderedPane rendered(String pipeline, int index) {
    return rendered(pipeline, "k", index);
  }

  private static RenderedPane rendered(String pipeline, String key, int index) {
    Pane pane =
        new Pane(
            key,
            WINDOW,
            (long) index,
            null,
            WINDOW.end() - 1,
            new PaneInfo(index, -1, Timing.EARLY, index == 0, false),
            false,
            -1,
            WINDOW.end(),
            0,
            0);
    return new RenderedPane(
        pane, new PaneRecordWriter(pipeline, EventPointers.DEFAULT.keyFields()).write(pane));
  }
}
