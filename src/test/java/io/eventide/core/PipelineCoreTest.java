package io.eventide.core;

import static io.eventide.core.CoreTester.event;
import static io.eventide.core.CoreTester.fromSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.engine.DropReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The live rules of a pipeline, driven through its core on a manual clock. */
class PipelineCoreTest {
  private static final String MINUTE_SUMS =
      """
      {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
       "watermark": {"idleTimeout": "1m"}}
      """;

  @Test
  void aBatchSeesTheWatermarkAsItStoodWhenItArrivedThenMovesIt() {
    CoreTester p = CoreTester.of(MINUTE_SUMS, 1, 0);
    IngestResult first = p.post(event("k", 10_000, 1), event("k", 70_000, 2));
    // The 10 s event is on time although its own batch carries the watermark past its window.
    assertThat(first.accepted()).isEqualTo(2);
    assertThat(first.late()).isZero();
    assertThat(p.watermark()).isEqualTo(70_000);
    List<JsonNode> panes = p.takePanes();
    assertThat(panes).hasSize(1);
    assertThat(panes.get(0).at("/pane/timing").stringValue()).isEqualTo("ON_TIME");
    assertThat(panes.get(0).get("value").asDouble()).isEqualTo(1);

    IngestResult late = p.post(event("k", 20_000, 4));
    assertThat(late.expired()).isEqualTo(1);
    List<DeadLetter> letters = p.takeDeadLetters();
    assertThat(letters).extracting(DeadLetter::reason).containsExactly(DropReason.EXPIRED);
    assertThat(letters.get(0).window().start()).isZero();
  }

  @Test
  void aRepeatedIdCountsOnceWhileItsWindowCanChange() {
    CoreTester p = CoreTester.of(MINUTE_SUMS, 2, 0);
    assertThat(p.post(event("k", 1_000, 1, "a")).accepted()).isEqualTo(1);
    IngestResult again =
        p.post(event("k", 1_000, 1, "a"), event("k", 2_000, 2, "b"), event("k", 2_000, 2, "b"));
    assertThat(again.accepted()).isEqualTo(1);
    assertThat(again.duplicates()).isEqualTo(2);

    p.postWatermark(null, 120_000);
    assertThat(p.takePanes()).extracting(n -> n.get("value").asDouble()).containsExactly(3.0);
    // Its window is gone, so the id is forgotten: the event is now simply expired.
    IngestResult expired = p.post(event("k", 1_000, 1, "a"));
    assertThat(expired.duplicates()).isZero();
    assertThat(expired.expired()).isEqualTo(1);
  }

  @Test
  void anEventTooFarAheadOfTheWallClockIsRefusedAndMovesNoWatermark() {
    CoreTester p = CoreTester.of(MINUTE_SUMS, 1, 0);
    IngestResult r = p.post(event("k", 10 * 60_000 + 1, 1), event("k", 10 * 60_000, 1));
    assertThat(r.future()).isEqualTo(1);
    assertThat(r.accepted()).isEqualTo(1);
    assertThat(p.watermark()).isEqualTo(10 * 60_000);
    List<DeadLetter> letters = p.takeDeadLetters();
    assertThat(letters).extracting(DeadLetter::reason).containsExactly(DropReason.FUTURE);
    assertThat(letters.get(0).path()).isEqualTo("/timestamp");
  }

  @Test
  void withClampAnEventTooFarAheadIsTakenAtItsArrivalTimeAndMovesNoWatermarkPastTheClock() {
    CoreTester p =
        CoreTester.of(
            """
            {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
             "watermark": {"onFutureSkew": "clamp"}}
            """,
            1,
            90_000);
    IngestResult r = p.post(event("k", 3_600_000, 5), event("k", 95_000, 1));
    assertThat(r.clamped()).isEqualTo(1);
    assertThat(r.future()).isZero();
    assertThat(r.accepted()).isEqualTo(2);
    assertThat(p.watermark()).isEqualTo(95_000);
    assertThat(p.takeDeadLetters()).isEmpty();
    p.postWatermark(null, 120_000);
    // Stamped 90 s, as it arrived, the hour-ahead event is summed in the window of 1:00 to 2:00.
    assertThat(p.takePanes())
        .extracting(n -> n.at("/window/start").asString(), n -> n.get("value").asDouble())
        .containsExactly(org.assertj.core.groups.Tuple.tuple("1970-01-01T00:01:00.000Z", 6.0));
  }

  @Test
  void theWatermarkIsTheLowestOfTheSourcesThatAreNotIdle() {
    CoreTester p = CoreTester.of(MINUTE_SUMS, 1, 0);
    p.post(fromSource("k", 100_000, "a"), fromSource("k", 50_000, "b"));
    assertThat(p.watermark()).isEqualTo(50_000);
    p.beatAt(30_000);
    p.post(fromSource("k", 130_000, "a"));
    assertThat(p.watermark()).isEqualTo(50_000);
    // b has been silent for the idle timeout: it no longer holds the watermark back.
    p.beatAt(60_001);
    assertThat(p.watermark()).isEqualTo(130_000);
  }

  @Test
  void aWatermarkPostedBehindThePipelinesIsIgnoredAndSaidSo() {
    CoreTester p = CoreTester.of(MINUTE_SUMS, 1, 0);
    assertThat(p.postWatermark(null, 100_000)).isTrue();
    assertThat(p.postWatermark(null, 50_000)).isFalse();
    assertThat(p.watermark()).isEqualTo(100_000);
  }

  @Test
  void eachKeyLivesInTheShardThatOwnsIt() {
    CoreTester p = CoreTester.of(MINUTE_SUMS, 4, 0);
    for (int k = 0; k < 20; k++) {
      p.post(event("key" + k, 1_000, 1));
    }
    for (int shard = 0; shard < 4; shard++) {
      int owned = 0;
      for (int k = 0; k < 20; k++) {
        owned += p.shardOf("key" + k) == shard ? 1 : 0;
      }
      // One open window per key, in its own shard and no other.
      assertThat(p.shard(shard).openWindows()).as("shard %d", shard).isEqualTo(owned);
    }
  }

  @Test
  void forgettingSilentSourcesKeepsTheLastHeardSoIdleAdvanceStillFollowsTheWallClock() {
    CoreTester p =
        CoreTester.of(
            """
            {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
             "watermark": {"idleTimeout": "1m", "idleAdvance": true}}
            """,
            1,
            0);
    p.post(fromSource("k", 1_000, "a"));
    p.beatAt(10_000);
    p.post(fromSource("k", 2_000, "b"));
    // Sixty idle timeouts after a, not yet after b.
    p.beatAt(3_600_000 + 5_000);
    assertThat(p.sources()).containsExactly("b");
    // Past b's expiry too: b stays, so every source is still idle and the wall clock leads.
    p.beatAt(2 * 3_600_000);
    assertThat(p.sources()).containsExactly("b");
    assertThat(p.watermark()).isEqualTo(2 * 3_600_000);
  }

  @Test
  void aRenderBudgetStopsAStepAtThePaneThatSpendsIt() {
    List<Integer> charged = new ArrayList<>();
    CoreTester p =
        CoreTester.of(
            """
            {"window": {"type": "fixed", "size": "1m"},
             "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
             "aggregate": {"type": "sum"}}
            """,
            1,
            0,
            chars -> {
              charged.add(chars);
              if (charged.size() == 3) {
                throw new IllegalStateException("spent");
              }
            });
    String[] events = new String[1000];
    for (int k = 0; k < events.length; k++) {
      events[k] = event("k" + k, 1, 1);
    }
    // One batch fires a pane for each of its 1000 keys; rendering stops at the third.
    assertThatThrownBy(() -> p.post(events)).hasMessage("spent");
    assertThat(charged).hasSize(3).allMatch(chars -> chars > 0);
  }
}
