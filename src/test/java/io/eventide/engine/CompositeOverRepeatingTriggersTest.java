package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static io.eventide.engine.PaneAssert.assertFullPanes;
import static io.eventide.engine.PaneAssert.full;
import static io.eventide.engine.TriggerKindsTest.fixed10;
import static io.eventide.engine.TriggerKindsTest.reasons;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * afterFirst and afterAll over sub-triggers that are not single-fire, as Beam's {@code List}
 * overloads allow: the composite still fires once and finishes, whatever its sub-triggers would do
 * next, and a sub-trigger that never finishes only counts as ready when it would fire.
 */
class CompositeOverRepeatingTriggersTest {

  @Test
  void afterAllOverARepeatedTriggerFiresOnceAndCloses() {
    Trigger trigger =
        new Trigger.AfterAll(
            List.of(
                new Trigger.Repeatedly(new Trigger.AfterCount(2)),
                new Trigger.AfterProcessingTime(10)));
    EngineTester t = EngineTester.of(fixed10(trigger));
    t.processingTime(0).inject(el(1, "a"));
    t.inject(el(2, "b")); // the repeated count is ready, the delay is not
    assertThat(t.takePanes()).isEmpty();
    t.advanceProcessingTime(11);
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, true));
    t.inject(el(3, "c"), el(4, "d"));
    assertThat(reasons(t)).containsExactly(DropReason.CLOSED, DropReason.CLOSED);
  }

  @Test
  void afterFirstOverAWatermarkTriggerWithLateFiringsClosesAtTheOnTimePane() {
    Trigger trigger =
        new Trigger.AfterFirst(
            List.of(
                new Trigger.AfterWatermark(null, new Trigger.AfterCount(1)),
                new Trigger.AfterCount(3)));
    EngineTester t = EngineTester.of(fixed10(trigger).withAllowedLateness(100));
    t.inject(el(1, "a"), el(2, "b")).advanceWatermark(10);
    // The late firings would keep the window open on their own; afterFirst has finished.
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.ON_TIME, 0, 0, true, true));
    t.inject(el(3, "c"), el(4, "d"), el(5, "e"));
    assertThat(reasons(t)).containsOnly(DropReason.CLOSED).hasSize(3);
    assertThat(t.takePanes()).isEmpty();
  }

  @Test
  void afterAllFinishesTheStepOfAnAfterEachThoughItsRepeatedSubTriggerNeverDoes() {
    Trigger trigger =
        new Trigger.AfterEach(
            List.of(
                new Trigger.AfterAll(
                    List.of(
                        new Trigger.Repeatedly(new Trigger.AfterCount(1)),
                        new Trigger.AfterCount(2))),
                new Trigger.AfterCount(1)));
    EngineTester t = EngineTester.of(fixed10(trigger));
    t.inject(el(1, "a"));
    assertThat(t.takePanes()).isEmpty();
    t.inject(el(2, "b"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, false));
    t.inject(el(3, "c"));
    assertFullPanes(t.takePanes(), full(0, 10, List.of("c"), 9, Timing.EARLY, 1, -1, false, true));
  }

  @Test
  void repeatedAfterFirstRestartsAnAfterEachSubTriggerAtEveryFiring() {
    Trigger trigger =
        new Trigger.Repeatedly(
            new Trigger.AfterFirst(
                List.of(
                    new Trigger.AfterEach(
                        List.of(new Trigger.AfterCount(2), new Trigger.AfterCount(1))),
                    new Trigger.AfterWatermark(null, null))));
    EngineTester t = EngineTester.of(fixed10(trigger));
    // Had the afterEach gone on to its second step, "c" alone would have fired.
    t.injectEach(el(1, "a"), el(2, "b"), el(3, "c"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("a", "b"), 9, Timing.EARLY, 0, -1, true, false));
    t.inject(el(4, "d"));
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of("c", "d"), 9, Timing.EARLY, 1, -1, false, false));
  }

  /**
   * A merge finishes the afterEach beneath the afterAll and reopens the afterAll, as its repeated
   * sub-trigger never finishes: the afterAll then fires with that one alone. Beam's runner throws a
   * NullPointerException at that firing, as it fires the finished afterEach.
   */
  @Test
  void aFinishedAfterEachBeneathAnAfterAllReopenedByAMergeNoLongerFires() {
    Trigger afterAll =
        new Trigger.AfterAll(
            List.of(
                new Trigger.AfterEach(
                    List.of(new Trigger.AfterCount(1), new Trigger.AfterCount(1))),
                new Trigger.Repeatedly(new Trigger.AfterProcessingTime(10))));
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withTrigger(new Trigger.AfterEach(List.of(afterAll, new Trigger.Never()))));
    t.processingTime(0).inject(el(0, "a"));
    t.advanceProcessingTime(11);
    t.inject(el(5, "b"));
    t.advanceProcessingTime(22);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 15, List.of("b"), 14, Timing.EARLY, 0, -1, true, false));

    t.inject(el(12, "c"));
    assertThat(t.engine().explain(EngineTester.KEY).get(0).trigger())
        .startsWith(
            "afterEach step 1 of 2: afterAll of: afterEach of 2 steps (done); repeatedly: ");
    t.advanceProcessingTime(33);
    assertFullPanes(t.takePanes(), full(0, 22, List.of("c"), 21, Timing.EARLY, 0, -1, true, false));
  }

  @Test
  void mergingSessionsAddUpTheCountOfARepeatedSubTrigger() {
    Trigger trigger =
        new Trigger.AfterFirst(
            List.of(
                new Trigger.Repeatedly(new Trigger.AfterCount(3)),
                new Trigger.AfterWatermark(null, null)));
    EngineTester t =
        EngineTester.of(WindowingStrategy.of(new WindowFn.Session(10)).withTrigger(trigger));
    t.inject(el(0, "a"), el(12, "b"));
    assertThat(t.takePanes()).isEmpty();
    t.inject(el(6, "c")); // bridges [0, 10) and [12, 22)
    assertFullPanes(
        t.takePanes(), full(0, 22, List.of("a", "b", "c"), 21, Timing.EARLY, 0, -1, true, true));
    t.advanceWatermarkToEnd();
    assertThat(t.takePanes()).isEmpty();
  }

  /**
   * A history found by RestartEquivalenceTest (seed 11, 3 000 scenarios): a late element reached an
   * afterEach beneath the early firings' afterFirst that had finished, and the afterEach, having no
   * step left to give it to, threw a NullPointerException. Finished, it now ignores the element.
   */
  @Test
  void aFinishedAfterEachBeneathEarlyFiringsIgnoresLaterElements() {
    Trigger early =
        new Trigger.AfterFirst(
            List.of(
                new Trigger.AfterCount(2),
                new Trigger.AfterEach(
                    List.of(new Trigger.AfterCount(1), new Trigger.AfterCount(1)))));
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Fixed(10_000, 7_000))
                .withTrigger(new Trigger.AfterWatermark(early, null))
                .withAllowedLateness(10_000)
                .withTimestampCombiner(TimestampCombiner.END_OF_WINDOW)
                .withClosingBehavior(ClosingBehavior.FIRE_ALWAYS)
                .withOnTimeBehavior(OnTimeBehavior.FIRE_ALWAYS));
    t.advanceWatermark(205_000)
        .inject(el("b", 189_000, 1), el("b", 236_817, 2), el("a", 216_000, 3))
        .inject(el("b", 244_000, 4), el("a", 230_647, 5))
        .inject(el("c", 139_325, 6), el("a", 223_000, 7), el("a", 198_000, 8), el("b", 211_000, 9))
        .inject(el("b", 203_482, 10), el("a", 219_000, 11), el("a", 203_000, 12))
        .inject(el("a", 210_000, 13))
        .advanceWatermark(219_051)
        .advanceWatermark(223_051)
        .inject(el("c", 235_051, 14), el("b", 230_051, 15), el("c", 181_480, 16))
        .inject(
            el("a", 164_383, 17), el("c", 200_051, 18), el("b", 244_583, 19), el("a", 217_543, 20))
        .inject(el("b", 235_051, 21), el("a", 223_051, 22))
        .advanceWatermarkToEnd();
    // Elements 20 and 22 reached the finished afterEach of window [217 s, 227 s) of key a; each
    // element of the window still comes out once, in discarding panes.
    Window window = new Window(217_000, 227_000);
    List<Long> values =
        t.takePanes().stream()
            .filter(p -> p.key().equals("a") && p.window().equals(window))
            .flatMap(p -> ((List<?>) p.value()).stream())
            .map(v -> ((Number) v).longValue())
            .toList();
    assertThat(values).containsExactlyInAnyOrder(7L, 11L, 20L, 22L);
  }
}
