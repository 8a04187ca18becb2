package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static io.eventide.engine.PaneAssert.assertFullPanes;
import static io.eventide.engine.PaneAssert.full;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Accumulation modes, allowed lateness and garbage collection, the end of time, timestamp
 * combiners, and the closing / on-time behaviours.
 */
class AccumulationAndLatenessTest {

  private static WindowingStrategy fixed10(Trigger trigger) {
    return WindowingStrategy.of(new WindowFn.Fixed(10, 0)).withTrigger(trigger);
  }

  private static long signedSum(List<Pane> panes) {
    return panes.stream()
        .mapToLong(p -> (p.retraction() ? -1 : 1) * ((Number) p.value()).longValue())
        .sum();
  }

  private static List<String> signed(List<Pane> panes) {
    return panes.stream().map(p -> (p.retraction() ? "-" : "+") + p.value()).toList();
  }

  // ---- accumulation modes ---------------------------------------------------------------------

  @Test
  void discardingAndAccumulatingPanes() {
    Trigger trigger = new Trigger.Repeatedly(new Trigger.AfterCount(2));
    EngineTester dis = EngineTester.of(fixed10(trigger), "sum");
    EngineTester acc =
        EngineTester.of(fixed10(trigger).withMode(AccumulationMode.ACCUMULATING), "sum");
    for (EngineTester t : List.of(dis, acc)) {
      t.injectEach(el(1, 1), el(2, 2), el(3, 3), el(4, 4), el(5, 5));
      t.advanceWatermark(10);
    }
    assertThat(PaneAssert.values(dis.takePanes())).containsExactly(3L, 7L, 5L);
    assertThat(PaneAssert.values(acc.takePanes())).containsExactly(3L, 10L, 15L);
  }

  @Test
  void retractionsPrecedeLaterPanesAndTheSignedSumIsTheAccumulatingValue() {
    EngineTester t =
        EngineTester.of(
            fixed10(
                    new Trigger.AfterWatermark(
                        new Trigger.AfterCount(1), new Trigger.AfterCount(1)))
                .withAllowedLateness(100)
                .withMode(AccumulationMode.RETRACTING),
            "sum");
    t.inject(el(1, 1));
    t.inject(el(2, 2));
    t.advanceWatermark(10);
    t.inject(el(3, 4));
    List<Pane> panes = t.takePanes();
    assertThat(signed(panes)).containsExactly("+1", "-1", "+3", "-3", "+3", "-3", "+7");
    assertThat(signedSum(panes)).isEqualTo(7);

    // Each retraction withdraws the pane just before it, carrying its index and pane info.
    Pane firstRetraction = panes.get(1);
    assertThat(firstRetraction.retraction()).isTrue();
    assertThat(firstRetraction.retracts()).isEqualTo(0);
    assertThat(firstRetraction.info().timing()).isEqualTo(Timing.EARLY);
    Pane lastRetraction = panes.get(5);
    assertThat(lastRetraction.retracts()).isEqualTo(2);
    assertThat(lastRetraction.info().timing()).isEqualTo(Timing.ON_TIME);
    assertFullPanes(
        panes,
        full(0, 10, 1L, 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, 3L, 9, Timing.EARLY, 1, -1, false, false),
        full(0, 10, 3L, 9, Timing.ON_TIME, 2, 0, false, false),
        full(0, 10, 7L, 9, Timing.LATE, 3, 1, false, false));
  }

  @Test
  void sessionMergeRetractsTheSwallowedSessionsPanes() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withAllowedLateness(100)
                .withMode(AccumulationMode.RETRACTING),
            "sum");
    t.inject(el(0, 1));
    t.inject(el(15, 2));
    t.advanceWatermark(30);
    assertThat(signed(t.takePanes())).containsExactly("+1", "+2");

    t.inject(el(7, 4)); // bridges [0, 10) and [15, 25) into [0, 25)
    List<Pane> panes = t.takePanes();
    assertThat(panes)
        .extracting(Pane::retraction, Pane::window, Pane::value)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(true, new Window(0, 10), 1L),
            org.assertj.core.groups.Tuple.tuple(true, new Window(15, 25), 2L),
            org.assertj.core.groups.Tuple.tuple(false, new Window(0, 25), 7L));
    assertThat(panes.get(2).retraction()).as("the new pane comes last").isFalse();
    assertThat(1 + 2 + signedSum(panes)).isEqualTo(7);
  }

  // ---- allowed lateness and garbage collection ------------------------------------------------

  @Test
  void lateUntilTheGarbageCollectionTimeThenExpired() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.Default()).withAllowedLateness(5));
    t.inject(el(1, "on time"));
    t.advanceWatermark(14); // past the end (9), not past GC (9 + 5)
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("on time"), 9, Timing.ON_TIME, 0, 0, true, false));
    t.inject(el(2, "late"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("late"), 9, Timing.LATE, 1, 1, false, false));
    assertThat(t.engine().openWindowCount()).isEqualTo(1);

    t.advanceWatermark(15);
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.engine().openWindowCount()).isZero();
    t.inject(el(3, "expired"));
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.takeDropped())
        .containsExactly(
            new EngineTester.Dropped(el(3, "expired"), new Window(0, 10), DropReason.EXPIRED));
  }

  @Test
  void garbageCollectionPaneCarriesPendingLateData() {
    EngineTester t =
        EngineTester.of(
            fixed10(new Trigger.AfterWatermark(null, new Trigger.AfterCount(5)))
                .withAllowedLateness(100));
    t.inject(el(1, "a"));
    t.advanceWatermark(10);
    t.takePanes();
    t.inject(el(2, "b"));
    t.advanceWatermark(110);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("b"), 9, Timing.LATE, 1, 1, false, true));
    assertThat(t.engine().openWindowCount()).isZero();
    assertThat(t.engine().keyCount()).isZero();
  }

  @Test
  void watermarkJumpToEndOfTimeFlushesBufferedDataOnTimeWhenNoOnTimePaneCameBefore() {
    EngineTester t =
        EngineTester.of(
            fixed10(new Trigger.Repeatedly(new Trigger.AfterProcessingTime(100)))
                .withAllowedLateness(1_000));
    t.processingTime(0).inject(el(1, "a"));
    t.advanceWatermarkToEnd();
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, true));
    t.advanceProcessingTime(500); // the pending processing-time timer never fires
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.engine().openWindowCount()).isZero();
  }

  @Test
  void watermarkJumpToEndOfTimeFlushesBufferedDataLateAfterAnOnTimePane() {
    EngineTester t =
        EngineTester.of(
            fixed10(new Trigger.AfterWatermark(null, new Trigger.AfterProcessingTime(100)))
                .withAllowedLateness(1_000));
    t.processingTime(0).inject(el(1, "a"));
    t.advanceWatermark(10);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, false));
    t.processingTime(5).inject(el(2, "b")); // late; its timer would fire after 105
    t.advanceWatermarkToEnd();
    assertFullPanes(t.takePanes(), full(0, 10, List.of("b"), 9, Timing.LATE, 1, 1, false, true));
    t.advanceProcessingTime(500);
    assertThat(t.takePanes()).isEmpty();
  }

  // ---- timestamp combiners --------------------------------------------------------------------

  @Test
  void timestampCombinersOnTimeAndLate() {
    Trigger trigger = new Trigger.AfterWatermark(null, new Trigger.AfterCount(1));
    Map<TimestampCombiner, Long> onTime =
        Map.of(
            TimestampCombiner.END_OF_WINDOW, 9L,
            TimestampCombiner.EARLIEST, 3L,
            TimestampCombiner.LATEST, 7L);
    for (TimestampCombiner c : TimestampCombiner.values()) {
      EngineTester t =
          EngineTester.of(fixed10(trigger).withAllowedLateness(100).withTimestampCombiner(c));
      t.inject(el(5, "a"), el(3, "b"), el(7, "c"));
      t.advanceWatermark(10);
      assertThat(t.takePanes())
          .extracting(Pane::timestamp)
          .as("%s", c)
          .containsExactly(onTime.get(c));
      // A late element is behind the output watermark and cannot hold it: only a GC hold (109)
      // is set, so the pane takes the window's maxTimestamp, whatever the combiner.
      t.inject(el(4, "late"));
      assertThat(t.takePanes()).extracting(Pane::timestamp).as("%s late", c).containsExactly(9L);
    }
  }

  @Test
  void earliestAndLatestFallBackToMaxTimestampWhenNoElementCouldHold() {
    for (TimestampCombiner c : List.of(TimestampCombiner.EARLIEST, TimestampCombiner.LATEST)) {
      EngineTester t = EngineTester.of(fixed10(new Trigger.Default()).withTimestampCombiner(c));
      t.advanceWatermark(6);
      // Both are behind the output watermark (6): neither holds it; a GC hold at 9 does.
      t.inject(el(2, "behind"), el(4, "behind too"));
      t.advanceWatermark(10);
      assertFullPanes(
          t.takePanes(),
          full(0, 10, List.of("behind", "behind too"), 9, Timing.ON_TIME, 0, 0, true, true));
    }
  }

  // ---- closing and on-time behaviours ---------------------------------------------------------

  @Test
  void closingBehaviorDecidesWhetherAnEmptyFinalPaneIsEmitted() {
    Trigger trigger = new Trigger.AfterWatermark(null, new Trigger.AfterCount(1));
    EngineTester always =
        EngineTester.of(
            fixed10(trigger)
                .withAllowedLateness(100)
                .withClosingBehavior(ClosingBehavior.FIRE_ALWAYS));
    EngineTester ifNonEmpty = EngineTester.of(fixed10(trigger).withAllowedLateness(100));
    for (EngineTester t : List.of(always, ifNonEmpty)) {
      t.inject(el(1, "a"));
      t.advanceWatermark(10);
      t.takePanes();
      t.advanceWatermark(110);
    }
    // The GC hold (109) placed after the on-time pane makes the empty closing pane LATE.
    assertFullPanes(always.takePanes(), full(0, 10, List.of(), 9, Timing.LATE, 1, 1, false, true));
    assertThat(ifNonEmpty.takePanes()).isEmpty();
  }

  @Test
  void onTimeBehaviorDecidesWhetherAnEmptyOnTimePaneIsEmitted() {
    Trigger trigger =
        new Trigger.AfterWatermark(new Trigger.AfterCount(1), new Trigger.AfterCount(1));
    EngineTester always = EngineTester.of(fixed10(trigger).withAllowedLateness(100));
    EngineTester ifNonEmpty =
        EngineTester.of(
            fixed10(trigger)
                .withAllowedLateness(100)
                .withOnTimeBehavior(OnTimeBehavior.FIRE_IF_NON_EMPTY));
    for (EngineTester t : List.of(always, ifNonEmpty)) {
      t.inject(el(1, "a"));
      t.advanceWatermark(10);
      t.inject(el(2, "b"));
    }
    assertFullPanes(
        always.takePanes(),
        full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, List.of(), 9, Timing.ON_TIME, 1, 0, false, false),
        full(0, 10, List.of("b"), 9, Timing.LATE, 2, 1, false, false));
    // Without the on-time pane the late one still counts as LATE: the watermark passed the end.
    assertFullPanes(
        ifNonEmpty.takePanes(),
        full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, List.of("b"), 9, Timing.LATE, 1, 0, false, false));
  }
}
