package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The explain view answers "why hasn't my window fired?" in words and numbers. */
class ExplainTest {
  private static final long MINUTE = 60_000;

  @Test
  void countProgressAndTheWatermarkTheWindowWaitsFor() {
    Trigger trigger =
        new Trigger.AfterWatermark(new Trigger.AfterCount(3), new Trigger.AfterCount(1));
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Fixed(5 * MINUTE, 0))
                .withTrigger(trigger)
                .withAllowedLateness(10 * MINUTE));
    t.inject(el(MINUTE, "a"), el(2 * MINUTE, "b"));
    t.advanceWatermark(3 * MINUTE);

    List<WindowSnapshot> windows = t.engine().explain(EngineTester.KEY);
    assertThat(windows).hasSize(1);
    WindowSnapshot w = windows.get(0);
    assertThat(w.elementCount()).isEqualTo(2);
    assertThat(w.nextPaneIndex()).isZero();
    assertThat(w.closed()).isFalse();
    assertThat(w.gcTime()).isEqualTo(15 * MINUTE - 1);
    assertThat(w.trigger())
        .isEqualTo(
            "early firings: afterCount 2 of 3; on time when the watermark passes"
                + " 1970-01-01T00:04:59.999Z; the watermark is 1970-01-01T00:03:00Z");
  }

  @Test
  void aFinishedWindowSaysItDropsLaterElements() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Fixed(5 * MINUTE, 0))
                .withTrigger(new Trigger.AfterCount(1)));
    t.inject(el(MINUTE, "a"));
    WindowSnapshot w = t.engine().explain(null).get(0);
    assertThat(w.closed()).isTrue();
    assertThat(w.trigger()).startsWith("finished; later elements are dropped until ");
  }

  @Test
  void batchOutcomesSayWhichElementsWereAddedAndWhichLate() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Fixed(MINUTE, 0)).withAllowedLateness(MINUTE));
    t.advanceWatermark(2 * MINUTE);
    t.inject(
        el(90_000, "late: [1m, 2m) is passed but not expired"),
        el(3 * MINUTE, "on time"),
        el(0, "expired"));
    ElementBatch batch = t.lastBatch();
    assertThat(batch.wasAdded(0)).isTrue();
    assertThat(batch.wasLate(0)).isTrue();
    assertThat(batch.wasAdded(1)).isTrue();
    assertThat(batch.wasLate(1)).isFalse();
    assertThat(batch.wasAdded(2)).isFalse();
  }
}
