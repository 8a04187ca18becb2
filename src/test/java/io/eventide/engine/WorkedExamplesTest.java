package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static io.eventide.engine.PaneAssert.pane;
import static io.eventide.engine.PaneAssert.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The six worked examples the engine was built to, each as the timeline it describes
 * (docs/semantics.md states the rules).
 */
class WorkedExamplesTest {
  private static final long SECOND = 1_000;
  private static final long MINUTE = 60 * SECOND;
  private static final long NOON = 12 * 60 * MINUTE;

  private static WindowingStrategy fixed(long size) {
    return WindowingStrategy.of(new WindowFn.Fixed(size, 0));
  }

  @Test
  void example1RepeatedCountOfThreeAccumulatingAndDiscarding() {
    Trigger trigger = new Trigger.Repeatedly(new Trigger.AfterCount(3));
    int[] input = {5, 8, 3, 15, 19, 23, 9, 13, 10};

    EngineTester acc =
        EngineTester.of(
            fixed(10 * MINUTE).withTrigger(trigger).withMode(AccumulationMode.ACCUMULATING));
    EngineTester dis = EngineTester.of(fixed(10 * MINUTE).withTrigger(trigger));
    for (int i = 0; i < input.length; i++) {
      acc.inject(el(i * SECOND, input[i]));
      dis.inject(el(i * SECOND, input[i]));
    }

    assertThat(values(acc.takePanes()))
        .containsExactly(
            List.of(5, 8, 3),
            List.of(5, 8, 3, 15, 19, 23),
            List.of(5, 8, 3, 15, 19, 23, 9, 13, 10));
    assertThat(values(dis.takePanes()))
        .containsExactly(List.of(5, 8, 3), List.of(15, 19, 23), List.of(9, 13, 10));
  }

  @Test
  void example2EarlyFiringsAccumulateOrDiscard() {
    long start = 10 * 60 * MINUTE;
    Trigger early = new Trigger.AfterWatermark(new Trigger.AfterProcessingTime(MINUTE), null);
    for (AccumulationMode mode :
        List.of(AccumulationMode.ACCUMULATING, AccumulationMode.DISCARDING)) {
      EngineTester t = EngineTester.of(fixed(5 * MINUTE).withTrigger(early).withMode(mode), "sum");
      t.inject(el(start, 10), el(start + MINUTE, 20));
      t.advanceProcessingTime(MINUTE + 1);
      t.processingTime(2 * MINUTE).inject(el(start + 2 * MINUTE, 15));
      t.advanceProcessingTime(3 * MINUTE + 1);
      List<Pane> panes = t.takePanes();
      assertThat(values(panes).get(0)).isEqualTo(30L);
      assertThat(values(panes).get(1)).isEqualTo(mode == AccumulationMode.ACCUMULATING ? 45L : 15L);
      assertThat(panes).allMatch(p -> p.info().timing() == Timing.EARLY);
    }
  }

  @Test
  void example3DefaultTriggerFiresEachWindowWhenTheWatermarkPassesIt() {
    EngineTester t = EngineTester.of(fixed(60 * SECOND));
    t.inject(
        el(1 * SECOND, "a"), el(59 * SECOND, "b"), el(61 * SECOND, "c"), el(120 * SECOND, "d"));

    t.advanceWatermark(60 * SECOND - 1);
    assertThat(t.takePanes()).isEmpty();
    t.advanceWatermark(60 * SECOND);
    PaneAssert.assertPanes(
        t.takePanes(), pane(0, 60 * SECOND, List.of("a", "b"), Timing.ON_TIME, 0, true));
    t.advanceWatermark(120 * SECOND);
    PaneAssert.assertPanes(
        t.takePanes(), pane(60 * SECOND, 120 * SECOND, List.of("c"), Timing.ON_TIME, 0, true));
    t.advanceWatermark(180 * SECOND);
    PaneAssert.assertPanes(
        t.takePanes(), pane(120 * SECOND, 180 * SECOND, List.of("d"), Timing.ON_TIME, 0, true));
  }

  @Test
  void example4RepeatedProcessingTimeInAllThreeModes() {
    Trigger trigger = new Trigger.Repeatedly(new Trigger.AfterProcessingTime(30 * SECOND));
    List<Object> expectedDiscarding = List.of(1L, 2L, 3L, 4L);
    List<Object> expectedAccumulating = List.of(1L, 3L, 6L, 10L);
    for (AccumulationMode mode : AccumulationMode.values()) {
      EngineTester t =
          EngineTester.of(fixed(2 * MINUTE).withTrigger(trigger).withMode(mode), "sum");
      long[] arrivals = {0, 31, 62, 93};
      for (int i = 0; i < 4; i++) {
        t.advanceProcessingTime(arrivals[i] * SECOND);
        t.inject(el(i * 30 * SECOND, i + 1));
      }
      t.advanceProcessingTime(125 * SECOND);
      List<Pane> panes = t.takePanes();
      switch (mode) {
        case DISCARDING -> assertThat(values(panes)).isEqualTo(expectedDiscarding);
        case ACCUMULATING -> assertThat(values(panes)).isEqualTo(expectedAccumulating);
        case RETRACTING -> {
          assertThat(panes.stream().map(p -> (p.retraction() ? "-" : "+") + p.value()).toList())
              .containsExactly("+1", "-1", "+3", "-3", "+6", "-6", "+10");
          long signed =
              panes.stream()
                  .mapToLong(p -> (p.retraction() ? -1 : 1) * ((Number) p.value()).longValue())
                  .sum();
          assertThat(signed).isEqualTo(10);
        }
      }
      assertThat(panes.stream().filter(p -> !p.retraction()).map(p -> p.emittedAt()).toList())
          .containsExactly(31 * SECOND, 62 * SECOND, 93 * SECOND, 125 * SECOND);
    }
  }

  @Test
  void example5LateFiringThenExpiry() {
    WindowingStrategy s =
        fixed(10 * MINUTE)
            .withTrigger(new Trigger.AfterWatermark(null, new Trigger.AfterCount(1)))
            .withAllowedLateness(120 * MINUTE)
            .withMode(AccumulationMode.ACCUMULATING);
    EngineTester t = EngineTester.of(s);
    t.inject(el(NOON + MINUTE, "on-time"));
    t.advanceWatermark(NOON + 25 * MINUTE);
    PaneAssert.assertPanes(
        t.takePanes(),
        pane(NOON, NOON + 10 * MINUTE, List.of("on-time"), Timing.ON_TIME, 0, false));

    t.inject(el(NOON + 2 * MINUTE, "late"));
    PaneAssert.assertPanes(
        t.takePanes(),
        pane(NOON, NOON + 10 * MINUTE, List.of("on-time", "late"), Timing.LATE, 1, false));

    t.advanceWatermark(NOON + 130 * MINUTE + 1);
    t.inject(el(NOON + 3 * MINUTE, "expired"));
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.takeDropped())
        .extracting(EngineTester.Dropped::reason)
        .containsExactly(DropReason.EXPIRED);
    assertThat(t.engine().openWindowCount()).isZero();
  }

  @Test
  @SuppressWarnings("unchecked")
  void example6LateElementBridgesTwoSessions() {
    EngineTester t = EngineTester.of(WindowingStrategy.of(new WindowFn.Session(10 * MINUTE)));
    t.inject(el(NOON, "12:00"), el(NOON + 5 * MINUTE, "12:05"));
    t.inject(el(NOON + 20 * MINUTE, "12:20"));
    t.inject(el(NOON + 12 * MINUTE, "12:12"));
    t.advanceWatermarkToEnd();
    List<Pane> panes = t.takePanes();
    assertThat(panes).hasSize(1);
    Pane p = panes.get(0);
    assertThat(p.window()).isEqualTo(new Window(NOON, NOON + 30 * MINUTE));
    assertThat((List<Object>) p.value())
        .containsExactlyInAnyOrder("12:00", "12:05", "12:20", "12:12");
  }
}
