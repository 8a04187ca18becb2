package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.EngineTester.Closed;
import org.junit.jupiter.api.Test;

/**
 * A window whose last pane said it might change, and that then closes at garbage collection with
 * nothing to emit, is reported: a sink can tell its consumers that the last figure is final.
 * Windows whose last pane was final already are not.
 */
class ClosedWithoutPaneTest {
  private static final Window FIRST = new Window(0, 10);

  private static WindowingStrategy lateness(long lateness) {
    return WindowingStrategy.of(new WindowFn.Fixed(10, 0)).withAllowedLateness(lateness);
  }

  @Test
  void anOnTimePaneFollowedByNothingIsReportedWhenTheWindowIsCollected() {
    EngineTester t = EngineTester.of(lateness(100), "sum");
    t.inject(el(1, 1), el(2, 2)).advanceWatermark(10);
    assertThat(t.takePanes()).singleElement().satisfies(p -> assertThat(p.isFinal()).isFalse());
    t.advanceWatermark(109);
    assertThat(t.takeClosed()).isEmpty();
    t.advanceWatermark(110);
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.takeClosed()).containsExactly(new Closed(EngineTester.KEY, FIRST));
  }

  @Test
  void aLatePaneIsTheOneMadeFinal() {
    EngineTester t = EngineTester.of(lateness(100), "sum");
    t.inject(el(1, 1)).advanceWatermark(10).inject(el(3, 4));
    assertThat(t.takePanes())
        .extracting(p -> p.info().timing())
        .containsExactly(Timing.ON_TIME, Timing.LATE);
    t.advanceWatermarkToEnd();
    assertThat(t.takeClosed()).containsExactly(new Closed(EngineTester.KEY, FIRST));
  }

  @Test
  void aClosingPaneOrAFinalOnTimePaneLeavesNothingToReport() {
    EngineTester always =
        EngineTester.of(lateness(100).withClosingBehavior(ClosingBehavior.FIRE_ALWAYS), "sum");
    always.inject(el(1, 1)).advanceWatermark(10).advanceWatermarkToEnd();
    assertThat(always.takePanes()).last().satisfies(p -> assertThat(p.isFinal()).isTrue());
    assertThat(always.takeClosed()).isEmpty();

    EngineTester noLateness = EngineTester.of(lateness(0), "sum");
    noLateness.inject(el(1, 1)).advanceWatermark(10).advanceWatermarkToEnd();
    assertThat(noLateness.takePanes())
        .singleElement()
        .satisfies(p -> assertThat(p.isFinal()).isTrue());
    assertThat(noLateness.takeClosed()).isEmpty();

    // Elements since the last pane: the closing pane carries them, and is final itself.
    EngineTester pending = EngineTester.of(lateness(100).withTrigger(new Trigger.Never()), "sum");
    pending.inject(el(1, 1)).advanceWatermarkToEnd();
    assertThat(pending.takePanes())
        .singleElement()
        .satisfies(p -> assertThat(p.isFinal()).isTrue());
    assertThat(pending.takeClosed()).isEmpty();
  }

  @Test
  void aTriggerThatFinishedLeavesNothingToReport() {
    // Its last pane was final, and the later element was dropped.
    EngineTester t = EngineTester.of(lateness(100).withTrigger(new Trigger.AfterCount(1)), "sum");
    t.inject(el(1, 1)).inject(el(2, 2)).advanceWatermarkToEnd();
    assertThat(t.takePanes()).singleElement().satisfies(p -> assertThat(p.isFinal()).isTrue());
    assertThat(t.takeClosed()).isEmpty();
  }
}
