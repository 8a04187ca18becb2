package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static io.eventide.engine.PaneAssert.assertFullPanes;
import static io.eventide.engine.PaneAssert.full;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Pane info rules, per-key output watermarks, determinism, and non-collect aggregates. */
class PaneInfoKeysAndDeterminismTest {

  private static WindowingStrategy fixed10(Trigger trigger) {
    return WindowingStrategy.of(new WindowFn.Fixed(10, 0)).withTrigger(trigger);
  }

  // ---- pane info ------------------------------------------------------------------------------

  @Test
  void timingRunsEarlyThenOnTimeThenLateWithNonSpeculativeIndexCountingNonEarlyPanes() {
    EngineTester t =
        EngineTester.of(
            fixed10(
                    new Trigger.AfterWatermark(
                        new Trigger.AfterCount(1), new Trigger.AfterCount(1)))
                .withAllowedLateness(100));
    t.inject(el(1, "a"));
    t.inject(el(2, "b"));
    t.advanceWatermark(10);
    t.inject(el(3, "c"));
    t.inject(el(4, "d"));
    List<Pane> panes = t.takePanes();
    assertFullPanes(
        panes,
        full(0, 10, List.of("a"), 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, List.of("b"), 9, Timing.EARLY, 1, -1, false, false),
        full(0, 10, List.of(), 9, Timing.ON_TIME, 2, 0, false, false),
        full(0, 10, List.of("c"), 9, Timing.LATE, 3, 1, false, false),
        full(0, 10, List.of("d"), 9, Timing.LATE, 4, 2, false, false));
    // Every pane says when the window stops changing: GC time (9 + 100) + 1.
    assertThat(panes).extracting(Pane::finalAt).containsOnly(110L);
    assertThat(panes).extracting(Pane::key).containsOnly(EngineTester.KEY);
  }

  @Test
  void firstPaneIsLateWhenTheOutputWatermarkHasPassedTheWindow() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.Default()).withAllowedLateness(100));
    t.advanceWatermark(50);
    t.inject(el(1, "late")); // no pane before, but the key's output watermark (50) is past 9
    assertFullPanes(t.takePanes(), full(0, 10, List.of("late"), 9, Timing.LATE, 0, 0, true, false));
  }

  @Test
  void dropReasonsAreExpiredAndClosed() {
    EngineTester t = EngineTester.of(fixed10(new Trigger.AfterCount(1)).withAllowedLateness(10));
    t.inject(el(25, "fires"));
    t.inject(el(26, "closed"));
    t.advanceWatermark(30);
    t.inject(el(5, "expired")); // [0, 10): 9 + 10 < 30
    assertThat(t.takeDropped())
        .containsExactly(
            new EngineTester.Dropped(el(26, "closed"), new Window(20, 30), DropReason.CLOSED),
            new EngineTester.Dropped(el(5, "expired"), new Window(0, 10), DropReason.EXPIRED));
    assertThat(DropReason.EXPIRED.wireName()).isEqualTo("expired");
    assertThat(DropReason.CLOSED.wireName()).isEqualTo("closed");
  }

  // ---- per-key output watermark ---------------------------------------------------------------

  /**
   * Key a holds its output watermark at 45 in sliding windows that are still open. With one output
   * watermark for all keys (Beam), key b's late pane for [-40, 60) would be ON_TIME (59 is not
   * before 45); per key (Eventide), key b's output watermark is 60 and the pane is LATE either way.
   */
  @Test
  void oneKeysHoldsNeverChangeAnotherKeysPanes() {
    WindowingStrategy s =
        WindowingStrategy.of(new WindowFn.Sliding(100, 10, 0))
            .withTimestampCombiner(TimestampCombiner.EARLIEST)
            .withAllowedLateness(1_000);

    EngineTester alone = EngineTester.of(s);
    alone.advanceWatermark(60);
    alone.inject(el("b", 50, "b"));
    alone.advanceWatermarkToEnd();
    List<Pane> bAlone = alone.takePanes();

    EngineTester withA = EngineTester.of(s);
    withA.inject(el("a", 45, "a"));
    withA.advanceWatermark(60);
    assertThat(withA.engine().outputWatermark("a")).isEqualTo(45);
    withA.inject(el("b", 50, "b"));
    // b@50 is behind the watermark (60), so it cannot hold; b's output watermark stays at 60.
    assertThat(withA.engine().outputWatermark("b")).isEqualTo(60);
    withA.advanceWatermarkToEnd();
    List<Pane> bWithA = withA.takePanes().stream().filter(p -> p.key().equals("b")).toList();

    assertThat(bWithA).isEqualTo(bAlone);
    Pane late = bAlone.get(0);
    assertThat(late.window()).isEqualTo(new Window(-40, 60));
    assertThat(late.info().timing()).isEqualTo(Timing.LATE);
    assertThat(bAlone).hasSize(10);
  }

  // ---- determinism ----------------------------------------------------------------------------

  private record Run(List<Pane> panes, List<EngineTester.Dropped> dropped) {}

  private static Run randomScenario(WindowingStrategy s, long seed) {
    Random r = new Random(seed);
    EngineTester t = EngineTester.of(s);
    List<Pane> panes = new ArrayList<>();
    List<EngineTester.Dropped> dropped = new ArrayList<>();
    long watermark = 0;
    long processing = 0;
    for (int step = 0; step < 300; step++) {
      switch (r.nextInt(4)) {
        case 0, 1 -> {
          int n = 1 + r.nextInt(5);
          EngineTester.Element[] batch = new EngineTester.Element[n];
          for (int i = 0; i < n; i++) {
            long ts = watermark - 300 + r.nextInt(400); // some on time, some late, some expired
            batch[i] = el("k" + r.nextInt(3), ts, "e" + step + "." + i);
          }
          t.processingTime(processing).inject(batch);
        }
        case 2 -> t.advanceWatermark(watermark += r.nextInt(40));
        default -> t.advanceProcessingTime(processing += r.nextInt(30));
      }
      panes.addAll(t.takePanes());
      dropped.addAll(t.takeDropped());
    }
    t.advanceWatermarkToEnd();
    panes.addAll(t.takePanes());
    assertThat(t.engine().openWindowCount()).isZero();
    return new Run(panes, dropped);
  }

  @Test
  void sameInputsGiveIdenticalPanes() {
    Trigger trigger =
        new Trigger.AfterWatermark(new Trigger.AfterProcessingTime(50), new Trigger.AfterCount(2));
    List<WindowingStrategy> strategies =
        List.of(
            WindowingStrategy.of(new WindowFn.Session(30))
                .withTrigger(trigger)
                .withAllowedLateness(200)
                .withMode(AccumulationMode.ACCUMULATING),
            WindowingStrategy.of(new WindowFn.Sliding(60, 20, 0))
                .withTrigger(trigger)
                .withAllowedLateness(50)
                .withMode(AccumulationMode.RETRACTING)
                .withTimestampCombiner(TimestampCombiner.EARLIEST));
    for (WindowingStrategy s : strategies) {
      Run first = randomScenario(s, 42);
      Run second = randomScenario(s, 42);
      assertThat(first.panes()).isNotEmpty();
      assertThat(first.dropped()).isNotEmpty();
      assertThat(second).isEqualTo(first);
    }
  }

  // ---- aggregates other than collect ----------------------------------------------------------

  @Test
  void meanCarriesItsPartialSoDiscardingPanesCombineDownstream() {
    EngineTester t =
        EngineTester.of(fixed10(new Trigger.Repeatedly(new Trigger.AfterCount(2))), "mean");
    t.inject(el(1, 2), el(2, 4));
    t.inject(el(3, 10), el(4, 20));
    List<Pane> panes = t.takePanes();
    assertFullPanes(
        panes,
        full(0, 10, 3L, 9, Timing.EARLY, 0, -1, true, false),
        full(0, 10, 15L, 9, Timing.EARLY, 1, -1, false, false));
    assertThat(panes)
        .extracting(Pane::partial)
        .containsExactly(Map.of("sum", 6L, "count", 2L), Map.of("sum", 30L, "count", 2L));
    double sum = 0;
    long count = 0;
    for (Pane p : panes) {
      Map<?, ?> partial = (Map<?, ?>) p.partial();
      sum += ((Number) partial.get("sum")).doubleValue();
      count += ((Number) partial.get("count")).longValue();
    }
    assertThat(sum / count).isEqualTo(9.0);
  }

  @Test
  void sumPerSessionEndToEnd() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withTrigger(new Trigger.AfterWatermark(new Trigger.AfterCount(2), null))
                .withMode(AccumulationMode.ACCUMULATING),
            "sum");
    t.inject(el(0, 1.5), el(4, 2.5));
    t.inject(el(30, 7));
    t.inject(el(8, 10));
    t.advanceWatermarkToEnd();
    assertFullPanes(
        t.takePanes(),
        full(0, 14, 4L, 13, Timing.EARLY, 0, -1, true, false),
        full(0, 18, 14L, 17, Timing.ON_TIME, 0, 0, true, true),
        full(30, 40, 7L, 39, Timing.ON_TIME, 0, 0, true, true));
  }
}
