package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static io.eventide.engine.PaneAssert.assertFullPanes;
import static io.eventide.engine.PaneAssert.full;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every trigger kind on ten-unit fixed windows, as timelines. */
class TriggerKindsTest {

  static WindowingStrategy fixed10(Trigger trigger) {
    return WindowingStrategy.of(new WindowFn.Fixed(10, 0)).withTrigger(trigger);
  }

  /** The reasons of the drops since the last call. */
  static List<DropReason> reasons(EngineTester t) {
    return t.takeDropped().stream().map(EngineTester.Dropped::reason).toList();
  }

  // ---- default --------------------------------------------------------------------------------

  @Test
  void defaultTriggerFiresALatePaneForEveryLateBatch() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.Default()).withAllowedLateness(100));
    t.inject(el(1, "a"));
    t.advanceWatermark(10);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, false));

    t.inject(el(2, "b"));
    assertFullPanes(t.takePanes(), full(0, 10, List.of("b"), 9, Timing.LATE, 1, 1, false, false));
    t.inject(el(3, "c"), el(4, "d")); // one batch, one pane
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("c", "d"), 9, Timing.LATE, 2, 2, false, false));

    t.advanceWatermark(110); // GC with nothing new: no closing pane (fire_if_non_empty)
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.engine().openWindowCount()).isZero();
  }

  // ---- afterWatermark -------------------------------------------------------------------------

  @Test
  void afterWatermarkAloneFiresOnceAndClosesTheWindow() {
    EngineTester t =
        EngineTester.of(fixed10(new Trigger.AfterWatermark(null, null)).withAllowedLateness(100));
    t.inject(el(1, "a"));
    t.advanceWatermark(10);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, true));
    t.inject(el(2, "b"));
    assertThat(t.takePanes()).isEmpty();
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED);
  }

  @Test
  void afterWatermarkWithEarlyFirings() {
    EngineTester t =
        EngineTester.of(fixed10(new Trigger.AfterWatermark(new Trigger.AfterCount(2), null)));
    t.inject(el(1, "a"));
    t.inject(el(2, "b"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, false));
    t.inject(el(3, "c")); // the early count restarted
    assertThat(t.takePanes()).isEmpty();
    t.advanceWatermark(10);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("c"), 9, Timing.ON_TIME, 1, 0, false, true));
  }

  @Test
  void afterWatermarkWithLateFiringsLivesUntilGarbageCollection() {
    EngineTester t =
        EngineTester.of(
            fixed10(new Trigger.AfterWatermark(null, new Trigger.AfterCount(2)))
                .withAllowedLateness(100));
    t.inject(el(1, "a"));
    t.advanceWatermark(10);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.ON_TIME, 0, 0, true, false));
    t.inject(el(2, "b"));
    assertThat(t.takePanes()).isEmpty();
    t.inject(el(3, "c"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("b", "c"), 9, Timing.LATE, 1, 1, false, false));
    t.inject(el(4, "d"));
    assertThat(t.takePanes()).isEmpty();

    // GC at 9 + 100: the pending late element comes out in the final pane.
    t.advanceWatermark(109);
    assertThat(t.takePanes()).isEmpty();
    t.advanceWatermark(110);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("d"), 9, Timing.LATE, 2, 2, false, true));
    assertThat(t.engine().openWindowCount()).isZero();
  }

  @Test
  void afterWatermarkWithEarlyAndLateFirings() {
    EngineTester t =
        EngineTester.of(
            fixed10(
                    new Trigger.AfterWatermark(
                        new Trigger.AfterCount(1), new Trigger.AfterCount(1)))
                .withAllowedLateness(100)
                .withMode(AccumulationMode.ACCUMULATING));
    t.inject(el(1, "a"));
    t.inject(el(2, "b"));
    t.advanceWatermark(10);
    t.inject(el(3, "c"));
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 1, -1, false, false),
        // on-time pane with nothing new: emitted anyway (onTimeBehavior fire_always)
        full(0, 10, List.of("a", "b"), 9, Timing.ON_TIME, 2, 0, false, false),
        full(0, 10, List.of("a", "b", "c"), 9, Timing.LATE, 3, 1, false, false));
  }

  // ---- afterProcessingTime --------------------------------------------------------------------

  @Test
  void afterProcessingTimeFiresStrictlyAfterItsTime() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.AfterProcessingTime(10)));
    t.processingTime(0).inject(el(1, "a"));
    t.processingTime(5).inject(el(2, "b")); // does not move the target: first element + 10
    t.advanceProcessingTime(10);
    assertThat(t.takePanes()).isEmpty();
    t.advanceProcessingTime(11);
    List<Pane> panes = t.takePanes();
    assertFullPanes(panes, full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, true));
    assertThat(panes.get(0).emittedAt()).isEqualTo(11);

    t.inject(el(3, "c")); // the trigger finished: the window is closed
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED);
  }

  @Test
  void repeatedProcessingTimeRestartsFromTheNextPanesFirstElement() {
    EngineTester t =
        EngineTester.of(fixed10(new Trigger.Repeatedly(new Trigger.AfterProcessingTime(10))));
    t.processingTime(0).inject(el(1, "a"));
    t.advanceProcessingTime(11);
    t.processingTime(20).inject(el(2, "b")); // next target 30
    t.advanceProcessingTime(30);
    assertThat(PaneAssert.values(t.takePanes())).containsExactly(List.of("a"));
    t.advanceProcessingTime(31);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("b"), 9, Timing.EARLY, 1, -1, false, false));
  }

  // ---- afterCount / repeatedly ----------------------------------------------------------------

  @Test
  void afterCountFiresOnceThenClosesTheWindow() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.AfterCount(2)));
    t.inject(el(1, "a"));
    assertThat(t.takePanes()).isEmpty();
    t.inject(el(2, "b"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, true));
    t.inject(el(3, "c"));
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED);
  }

  @Test
  void repeatedlyResetsItsSubTrigger() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.Repeatedly(new Trigger.AfterCount(2))));
    t.injectEach(el(1, "a"), el(2, "b"), el(3, "c"), el(4, "d"), el(5, "e"));
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, List.of("c", "d"), 9, Timing.EARLY, 1, -1, false, false));
    // The window's end (= GC with zero lateness) flushes the leftover element.
    t.advanceWatermark(10);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("e"), 9, Timing.ON_TIME, 2, 0, false, true));
  }

  @Test
  void triggersAreAskedOncePerBatch() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.Repeatedly(new Trigger.AfterCount(2))));
    t.inject(el(1, 1), el(2, 2), el(3, 3), el(4, 4), el(5, 5));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of(1, 2, 3, 4, 5), 9, Timing.EARLY, 0, -1, true, false));
  }

  // ---- afterEach / afterFirst / afterAll / orFinally / never ----------------------------------

  @Test
  void afterEachRunsItsSubTriggersInOrder() {
    EngineTester t =
        EngineTester.of(
            fixed10(
                new Trigger.AfterEach(
                    List.of(new Trigger.AfterCount(2), new Trigger.AfterCount(3)))));
    t.injectEach(el(1, "a"), el(2, "b"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, false));
    t.injectEach(el(3, "c"), el(4, "d"));
    assertThat(t.takePanes()).isEmpty();
    t.inject(el(5, "e"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("c", "d", "e"), 9, Timing.EARLY, 1, -1, false, true));
    t.inject(el(6, "f"));
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED);
  }

  @Test
  void afterFirstFiresAndFinishesWithTheFirstSubTrigger() {
    Trigger trigger =
        new Trigger.AfterFirst(
            List.of(new Trigger.AfterCount(3), new Trigger.AfterProcessingTime(10)));
    EngineTester byTime = EngineTester.of(fixed10(trigger));
    byTime.processingTime(0).inject(el(1, "a"));
    byTime.advanceProcessingTime(11);
    assertFullPanes(
        byTime.takePanes(), full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, true));
    byTime.inject(el(2, "b"));
    assertThat(reasons(byTime)).containsExactly(DropReason.CLOSED);

    EngineTester byCount = EngineTester.of(fixed10(trigger));
    byCount.processingTime(0).injectEach(el(1, "a"), el(2, "b"), el(3, "c"));
    assertFullPanes(
        byCount.takePanes(),
        full(0, 10, List.of("a", "b", "c"), 9, Timing.EARLY, 0, -1, true, true));
    byCount.advanceProcessingTime(100); // the processing-time part is gone with the window's state
    assertThat(byCount.takePanes()).isEmpty();
  }

  @Test
  void afterAllWaitsForEverySubTrigger() {
    Trigger trigger =
        new Trigger.AfterAll(
            List.of(new Trigger.AfterCount(2), new Trigger.AfterProcessingTime(10)));
    EngineTester t = EngineTester.of(fixed10(trigger));
    t.processingTime(0).inject(el(1, "a"));
    t.advanceProcessingTime(11); // time is up, the count is not
    assertThat(t.takePanes()).isEmpty();
    t.processingTime(12).inject(el(2, "b"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, true));
    t.inject(el(3, "c"));
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED);
  }

  @Test
  void orFinallyFiresUntilItsUntilTriggerFiresThenCloses() {
    Trigger trigger =
        new Trigger.OrFinally(
            new Trigger.Repeatedly(new Trigger.AfterCount(1)), new Trigger.AfterCount(3));
    EngineTester t = EngineTester.of(fixed10(trigger));
    t.injectEach(el(1, "a"), el(2, "b"), el(3, "c"), el(4, "d"));
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, List.of("b"), 9, Timing.EARLY, 1, -1, false, false),
        full(0, 10, List.of("c"), 9, Timing.EARLY, 2, -1, false, true));
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED);
  }

  @Test
  void orFinallyWithAWatermarkUntilEndsWithAnOnTimePane() {
    Trigger trigger =
        new Trigger.OrFinally(
            new Trigger.Repeatedly(new Trigger.AfterCount(1)),
            new Trigger.AfterWatermark(null, null));
    EngineTester t = EngineTester.of(fixed10(trigger).withAllowedLateness(100));
    t.inject(el(1, "a"));
    t.advanceWatermark(10);
    // The until part fires at the window's end: an empty on-time pane (fire_always), and last.
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, List.of(), 9, Timing.ON_TIME, 1, 0, false, true));
    t.inject(el(2, "b"));
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED);
  }

  @Test
  void aFinishedWindowEmitsNoClosingPaneEvenWithFireAlways() {
    EngineTester t =
        EngineTester.of(
            fixed10(new Trigger.AfterCount(1))
                .withAllowedLateness(10)
                .withClosingBehavior(ClosingBehavior.FIRE_ALWAYS));
    t.inject(el(1, "a"));
    assertFullPanes(t.takePanes(), full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, true));
    t.advanceWatermark(30);
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.engine().openWindowCount()).isZero();
  }

  @Test
  void neverEmitsOnlyTheGarbageCollectionPane() {
    for (ClosingBehavior closing : ClosingBehavior.values()) {
      EngineTester t =
          EngineTester.of(
              fixed10(new Trigger.Never()).withAllowedLateness(100).withClosingBehavior(closing));
      t.inject(el(1, "a"));
      t.inject(el(2, "b"));
      t.advanceWatermark(109);
      assertThat(t.takePanes()).as("before GC, %s", closing).isEmpty();
      t.advanceWatermark(110);
      // The element hold at the window's end (end_of_window combiner) keeps the output
      // watermark at 9 until this pane: not late for output, so ON_TIME, as Beam's
      // PaneInfoTracker.describePane decides.
      assertFullPanes(
          t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.ON_TIME, 0, 0, true, true));
    }
  }

  @Test
  void neverWithLateDataOnlyGivesALateGarbageCollectionPane() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.Never()).withAllowedLateness(100));
    t.advanceWatermark(50);
    t.inject(el(1, "late")); // cannot hold the output watermark: a GC hold at 109 instead
    t.advanceWatermark(110);
    assertFullPanes(t.takePanes(), full(0, 10, List.of("late"), 9, Timing.LATE, 0, 0, true, true));
  }
}
