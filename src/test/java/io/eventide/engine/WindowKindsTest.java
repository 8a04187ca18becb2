package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static io.eventide.engine.PaneAssert.assertFullPanes;
import static io.eventide.engine.PaneAssert.full;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every window kind, through the engine: which windows an element lands in and how they fire. */
class WindowKindsTest {

  // ---- fixed ----------------------------------------------------------------------------------

  @Test
  void fixedWindowsWithAnOffsetHandleNegativeTimestamps() {
    // Boundaries at 3 mod 10: ..., [-17, -7), [-7, 3), [3, 13), ...
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Fixed(10, 3)));
    t.inject(el(-1, "a"), el(3, "b"), el(-8, "c"), el(2, "d"), el(-7, "e"));
    t.advanceWatermark(13);
    assertFullPanes(
        t.takePanes(),
        full(-17, -7, List.of("c"), -8, Timing.ON_TIME, 0, 0, true, true),
        full(-7, 3, List.of("a", "d", "e"), 2, Timing.ON_TIME, 0, 0, true, true),
        full(3, 13, List.of("b"), 12, Timing.ON_TIME, 0, 0, true, true));
  }

  @Test
  void fixedWindowFiresOnlyWhenTheWatermarkIsPastItsMaxTimestamp() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Fixed(10, 0)));
    t.inject(el(9, "a"));
    t.advanceWatermark(9); // W == maxTimestamp: not past it
    assertThat(t.takePanes()).isEmpty();
    t.advanceWatermark(10);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, true));
  }

  // ---- sliding --------------------------------------------------------------------------------

  @Test
  void slidingElementLandsInSizeOverPeriodWindows() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Sliding(10, 5, 0)));
    t.inject(el(7, "x"));
    t.advanceWatermarkToEnd();
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of("x"), 9, Timing.ON_TIME, 0, 0, true, true),
        full(5, 15, List.of("x"), 14, Timing.ON_TIME, 0, 0, true, true));
  }

  @Test
  void slidingWithSizeNotAMultipleOfPeriodGivesCeilOrFewerWindows() {
    // size 10, period 4: ceil(10 / 4) = 3 windows for 9, but only 2 for 10 ([0, 10) ends before).
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Sliding(10, 4, 0)));
    t.inject(el(9, "nine"));
    t.advanceWatermarkToEnd();
    assertThat(t.takePanes())
        .extracting(Pane::window)
        .containsExactly(new Window(0, 10), new Window(4, 14), new Window(8, 18));

    EngineTester u = EngineTester.of(WindowingStrategy.of(new WindowFn.Sliding(10, 4, 0)));
    u.inject(el(10, "ten"));
    u.advanceWatermarkToEnd();
    assertThat(u.takePanes())
        .extracting(Pane::window)
        .containsExactly(new Window(4, 14), new Window(8, 18));
  }

  @Test
  void slidingElementIsDroppedOnlyFromItsExpiredWindows() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Sliding(10, 5, 0)));
    t.advanceWatermark(12);
    t.inject(el(7, "x")); // [0, 10) is expired (9 + 0 < 12); [5, 15) is still open
    assertThat(t.takeDropped())
        .containsExactly(
            new EngineTester.Dropped(el(7, "x"), new Window(0, 10), DropReason.EXPIRED));
    t.advanceWatermark(15);
    assertFullPanes(t.takePanes(), full(5, 15, List.of("x"), 14, Timing.ON_TIME, 0, 0, true, true));
  }

  // ---- sessions -------------------------------------------------------------------------------

  @Test
  void sessionsMergeWithinOneBatch() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Session(10)));
    t.inject(el(1, "a"), el(30, "c"), el(5, "b"));
    t.advanceWatermarkToEnd();
    assertFullPanes(
        t.takePanes(),
        full(1, 15, List.of("a", "b"), 14, Timing.ON_TIME, 0, 0, true, true),
        full(30, 40, List.of("c"), 39, Timing.ON_TIME, 0, 0, true, true));
  }

  @Test
  void sessionsMergeAcrossBatches() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Session(10)));
    t.inject(el(1, "a"));
    t.inject(el(5, "b"));
    t.inject(el(14, "c")); // [14, 24) touches [1, 15) at 14..15: they intersect
    t.inject(el(40, "d"));
    t.advanceWatermarkToEnd();
    assertFullPanes(
        t.takePanes(),
        full(1, 24, List.of("a", "b", "c"), 23, Timing.ON_TIME, 0, 0, true, true),
        full(40, 50, List.of("d"), 49, Timing.ON_TIME, 0, 0, true, true));
  }

  @Test
  void touchingSessionsDoNotMerge() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Session(10)));
    t.inject(el(0, "a"), el(10, "b")); // [0, 10) and [10, 20) share no point
    t.advanceWatermarkToEnd();
    assertThat(t.takePanes())
        .extracting(Pane::window)
        .containsExactly(new Window(0, 10), new Window(10, 20));
  }

  @Test
  void paneIndexRestartsForANewSpanAndContinuesForAProtoWindowInside() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withTrigger(new Trigger.Repeatedly(new Trigger.AfterCount(1)))
                .withMode(AccumulationMode.ACCUMULATING));
    t.inject(el(1, "a"));
    assertFullPanes(t.takePanes(), full(1, 11, List.of("a"), 10, Timing.EARLY, 0, -1, true, false));

    t.inject(el(5, "b")); // [1, 15) is a new window: index 0 again
    assertFullPanes(
        t.takePanes(), full(1, 15, List.of("a", "b"), 14, Timing.EARLY, 0, -1, true, false));

    t.inject(el(3, "c")); // [3, 13) lies inside [1, 15): the same window, its panes go on
    assertFullPanes(
        t.takePanes(), full(1, 15, List.of("a", "b", "c"), 14, Timing.EARLY, 1, -1, false, false));
  }

  @Test
  void lateElementBridgingTwoFiredSessionsMergesAllThree() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withAllowedLateness(100)
                .withMode(AccumulationMode.ACCUMULATING));
    t.inject(el(0, "a"));
    t.inject(el(15, "b"));
    t.advanceWatermark(30);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, false),
        full(15, 25, List.of("b"), 24, Timing.ON_TIME, 0, 0, true, false));

    // [7, 17) bridges [0, 10) and [15, 25): one new window [0, 25), a fresh pane sequence, and
    // LATE because the key's output watermark (30) is already past its end.
    t.inject(el(7, "late"));
    assertFullPanes(
        t.takePanes(), full(0, 25, List.of("a", "b", "late"), 24, Timing.LATE, 0, 0, true, false));
    assertThat(t.engine().openWindowCount()).isEqualTo(1);
    // Both fired sessions are reported gone, so that their results can go with them.
    assertThat(t.takeMerged())
        .containsExactlyInAnyOrder(
            new EngineTester.Merged(EngineTester.KEY, new Window(0, 10), new Window(0, 25)),
            new EngineTester.Merged(EngineTester.KEY, new Window(15, 25), new Window(0, 25)));

    // GC of [0, 25) at 24 + 100: nothing new, so no closing pane; the state is gone.
    t.advanceWatermark(125);
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.engine().openWindowCount()).isZero();
  }

  @Test
  void lateElementExtendingAFiredSessionPastTheWatermarkMakesANewOnTimeWindow() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withAllowedLateness(100)
                .withMode(AccumulationMode.ACCUMULATING));
    t.inject(el(0, "a"));
    t.advanceWatermark(12);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, false));

    // [8, 18) extends [0, 10) to [0, 18), whose end the watermark has not reached: no pane yet,
    // and the new window's element hold (17) is ahead of the output watermark.
    t.inject(el(8, "b"));
    assertThat(t.takePanes()).isEmpty();
    t.advanceWatermark(18);
    assertFullPanes(
        t.takePanes(), full(0, 18, List.of("a", "b"), 17, Timing.ON_TIME, 0, 0, true, false));
  }

  @Test
  void sessionMergeKeepsTheEarliestProcessingTimeTarget() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withTrigger(
                    new Trigger.AfterWatermark(new Trigger.AfterProcessingTime(10), null)));
    t.processingTime(0).inject(el(1, "a")); // target 10
    t.processingTime(5).inject(el(5, "b")); // its own target would be 15; the merge keeps 10
    t.advanceProcessingTime(10);
    assertThat(t.takePanes()).isEmpty();
    t.advanceProcessingTime(11);
    assertFullPanes(
        t.takePanes(), full(1, 15, List.of("a", "b"), 14, Timing.EARLY, 0, -1, true, false));
  }

  // ---- global ---------------------------------------------------------------------------------

  @Test
  void globalWindowWithDefaultTriggerFiresOnlyAtTheEndOfTime() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Global()));
    t.inject(el(0, "a"), el(1_000, "b"));
    t.advanceWatermark(Time.GLOBAL_MAX_TIMESTAMP);
    assertThat(t.takePanes()).isEmpty();
    t.advanceWatermarkToEnd();
    assertFullPanes(
        t.takePanes(),
        full(
            Window.GLOBAL.start(),
            Window.GLOBAL.end(),
            List.of("a", "b"),
            Time.GLOBAL_MAX_TIMESTAMP,
            Timing.ON_TIME,
            0,
            0,
            true,
            true));
    assertThat(t.engine().openWindowCount()).isZero();
  }

  @Test
  void globalWindowWithRepeatedCount() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Global())
                .withTrigger(new Trigger.Repeatedly(new Trigger.AfterCount(2))));
    long g0 = Window.GLOBAL.start();
    long g1 = Window.GLOBAL.end();
    long max = Time.GLOBAL_MAX_TIMESTAMP;
    t.injectEach(el(0, "a"), el(1, "b"), el(2, "c"), el(3, "d"), el(4, "e"));
    assertFullPanes(
        t.takePanes(),
        full(g0, g1, List.of("a", "b"), max, Timing.EARLY, 0, -1, true, false),
        full(g0, g1, List.of("c", "d"), max, Timing.EARLY, 1, -1, false, false));

    // The leftover element comes out when the global window is collected at the end of time.
    t.advanceWatermarkToEnd();
    assertFullPanes(
        t.takePanes(), full(g0, g1, List.of("e"), max, Timing.ON_TIME, 2, 0, false, true));
  }
}
