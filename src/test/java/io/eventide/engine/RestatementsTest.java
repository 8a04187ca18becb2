package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.AggregateSpec;
import io.eventide.engine.aggregate.Aggregates;
import io.eventide.engine.aggregate.NamedAggregates;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pane that follows a published on-time or late pane of its window says what it supersedes:
 * {@code restates} with that pane's index and, in accumulating and retracting modes, its value.
 */
class RestatementsTest {
  private static final Pane.Restatement NONE = null;

  private static WindowingStrategy lateByDefault(AccumulationMode mode) {
    return WindowingStrategy.of(new WindowFn.Fixed(10, 0)).withAllowedLateness(100).withMode(mode);
  }

  /** On time 3, then two late batches: 4 and 8. */
  private static List<Pane> onTimeThenTwoLate(EngineTester t) {
    t.inject(el(1, 1), el(2, 2)).advanceWatermark(10).inject(el(3, 4)).inject(el(4, 8));
    return t.takePanes();
  }

  @Test
  void discardingRestatesByIndexOnly() {
    List<Pane> panes =
        onTimeThenTwoLate(EngineTester.of(lateByDefault(AccumulationMode.DISCARDING), "sum"));
    assertThat(panes).extracting(Pane::value).containsExactly(3L, 4L, 8L);
    assertThat(panes)
        .extracting(Pane::restates)
        .containsExactly(NONE, Pane.Restatement.indexOnly(0), Pane.Restatement.indexOnly(1));
  }

  @Test
  void accumulatingRestatesTheIndexAndValueOfThePaneSuperseded() {
    List<Pane> panes =
        onTimeThenTwoLate(EngineTester.of(lateByDefault(AccumulationMode.ACCUMULATING), "sum"));
    assertThat(panes).extracting(Pane::value).containsExactly(3L, 7L, 15L);
    assertThat(panes)
        .extracting(Pane::restates)
        .containsExactly(NONE, Pane.Restatement.of(0, 3L), Pane.Restatement.of(1, 7L));
  }

  @Test
  void accumulatingKeepsTheValueAsEmittedNotTheAccumulator() {
    // collect: the value is a snapshot list; the accumulator grows on after it.
    List<Pane> panes =
        onTimeThenTwoLate(EngineTester.of(lateByDefault(AccumulationMode.ACCUMULATING)));
    assertThat(panes.get(2).restates()).isEqualTo(Pane.Restatement.of(1, List.of(1, 2, 4)));
    assertThat(panes.get(2).restates().value()).isSameAs(panes.get(1).value());
  }

  @Test
  void retractingRestatesOnPanesOnlyNotOnRetractions() {
    List<Pane> panes =
        onTimeThenTwoLate(EngineTester.of(lateByDefault(AccumulationMode.RETRACTING), "sum"));
    assertThat(panes).extracting(Pane::retraction).containsExactly(false, true, false, true, false);
    assertThat(panes).extracting(Pane::value).containsExactly(3L, 3L, 7L, 7L, 15L);
    assertThat(panes)
        .extracting(Pane::restates)
        .containsExactly(NONE, NONE, Pane.Restatement.of(0, 3L), NONE, Pane.Restatement.of(1, 7L));
  }

  @Test
  void panesAfterEarlyPanesOnlyRestateNothing() {
    EngineTester t =
        EngineTester.of(
            lateByDefault(AccumulationMode.ACCUMULATING)
                .withTrigger(
                    new Trigger.AfterWatermark(
                        new Trigger.AfterCount(2), new Trigger.AfterCount(1))),
            "sum");
    t.inject(el(1, 1), el(2, 2)).inject(el(3, 4)).advanceWatermark(10).inject(el(4, 8));
    List<Pane> panes = t.takePanes();
    assertThat(panes)
        .extracting(p -> p.info().timing())
        .containsExactly(Timing.EARLY, Timing.ON_TIME, Timing.LATE);
    assertThat(panes)
        .extracting(Pane::restates)
        .containsExactly(NONE, NONE, Pane.Restatement.of(1, 7L));
  }

  @Test
  void aLatePaneAfterEarlyPanesOnlyRestatesNothing() {
    // No watermark part: the panes before the window passed are early; a pane after it is late
    // (the output watermark passed the window) but follows only speculative figures.
    EngineTester t =
        EngineTester.of(
            lateByDefault(AccumulationMode.ACCUMULATING)
                .withTrigger(new Trigger.Repeatedly(new Trigger.AfterCount(1))),
            "sum");
    t.inject(el(1, 1)).advanceWatermark(50).inject(el(2, 2)).inject(el(3, 4));
    List<Pane> panes = t.takePanes();
    assertThat(panes)
        .extracting(p -> p.info().timing())
        .containsExactly(Timing.EARLY, Timing.LATE, Timing.LATE);
    assertThat(panes)
        .extracting(Pane::restates)
        .containsExactly(NONE, NONE, Pane.Restatement.of(1, 3L));
  }

  @Test
  void theGarbageCollectionPaneRestatesTooAndAFinishedWindowKeepsNoValue() {
    EngineTester t =
        EngineTester.of(
            lateByDefault(AccumulationMode.ACCUMULATING)
                .withTrigger(new Trigger.AfterWatermark(null, new Trigger.AfterCount(5))),
            "sum");
    t.inject(el(1, 1)).advanceWatermark(10).inject(el(2, 2)).advanceWatermark(200);
    List<Pane> panes = t.takePanes();
    assertThat(panes).extracting(Pane::value).containsExactly(1L, 3L);
    assertThat(panes.get(1).info().last()).isTrue();
    assertThat(panes.get(1).restates()).isEqualTo(Pane.Restatement.of(0, 1L));
  }

  @Test
  void aNullValueIsRestatedAsNull() {
    // latest of an element without a payload: the on-time pane's value is null.
    EngineTester t = EngineTester.of(lateByDefault(AccumulationMode.ACCUMULATING), "latest");
    t.inject(el(1, null)).advanceWatermark(10).inject(el(2, "x"));
    List<Pane> panes = t.takePanes();
    assertThat(panes).extracting(Pane::value).containsExactly(null, "x");
    assertThat(panes)
        .extracting(Pane::restates)
        .containsExactly(NONE, Pane.Restatement.of(0, null));
  }

  @Test
  void restatementsSurviveARestartFromDurableState() {
    for (AccumulationMode mode : AccumulationMode.values()) {
      WindowingStrategy strategy = lateByDefault(mode);
      EngineTester before = EngineTester.of(strategy, "sum");
      before.engine().trackChanges();
      before.inject(el(1, 1), el(2, 2)).advanceWatermark(10).inject(el(3, 4));
      before.takePanes();
      byte[] state = before.drainChangedState();

      EngineTester after = EngineTester.of(strategy, "sum");
      after.engine().restoreKey(EngineTester.KEY, state);
      after.engine().restoreInputWatermark(before.engine().inputWatermark());
      for (EngineTester t : List.of(before, after)) {
        t.inject(el(4, 8));
      }
      List<Pane> expected = before.takePanes();
      assertThat(after.takePanes()).as(mode.name()).isEqualTo(expected);
      Pane last = expected.get(expected.size() - 1);
      assertThat(last.restates())
          .as(mode.name())
          .isEqualTo(
              mode == AccumulationMode.DISCARDING
                  ? Pane.Restatement.indexOnly(1)
                  : Pane.Restatement.of(1, 7L));
    }
  }

  @Test
  void aWindowStoredBeforeRestatementsRestatesByIndexOnly() {
    // Written by the engine of commit 54876b0 (StoredStateCompatibilityTest): accumulating, window
    // [0, 60 s) with panes EARLY 3.5, ON_TIME 7.5, LATE 23.5, and no last value kept.
    WindowingStrategy strategy =
        WindowingStrategy.of(new WindowFn.Fixed(60_000, 0))
            .withTrigger(
                new Trigger.AfterWatermark(new Trigger.AfterCount(2), new Trigger.AfterCount(1)))
            .withMode(AccumulationMode.ACCUMULATING)
            .withAllowedLateness(60_000);
    EngineTester t = EngineTester.of(strategy, "sum");
    t.engine()
        .restoreKey(
            "a",
            HexFormat.of()
                .parseHex(
                    "010200e0d4038604020200000003020301403780000000000000c0a907e0d403cf01bea90700"
                        + "020200000000002000"));
    t.engine().restoreInputWatermark(65_000);
    t.inject(el("a", 50_000, 7)).inject(el("a", 51_000, 1));
    List<Pane> panes = t.takePanes();
    assertThat(panes).extracting(Pane::value).containsExactly(30.5, 31.5);
    assertThat(panes)
        .extracting(Pane::restates)
        .containsExactly(Pane.Restatement.indexOnly(2), Pane.Restatement.of(3, 30.5));
  }

  @Test
  void aMergedSessionIsANewWindowAndRestatesNothingWhileOneThatKeepsItsSpanGoesOn() {
    EngineTester t =
        EngineTester.of(
            WindowingStrategy.of(new WindowFn.Session(10))
                .withAllowedLateness(100)
                .withMode(AccumulationMode.ACCUMULATING),
            "sum");
    t.inject(el(0, 1)).advanceWatermark(20);
    assertThat(t.takePanes()).extracting(Pane::restates).containsExactly(NONE);

    t.inject(el(5, 2)); // [0, 10) and [5, 15) merge into [0, 15): a new window
    Pane merged = t.takePanes().get(0);
    assertThat(merged.window()).isEqualTo(new Window(0, 15));
    assertThat(merged.info().index()).isZero();
    assertThat(merged.restates()).isNull();

    t.inject(el(4, 4)); // [4, 14) falls inside [0, 15): the window goes on
    Pane next = t.takePanes().get(0);
    assertThat(next.window()).isEqualTo(new Window(0, 15));
    assertThat(next.value()).isEqualTo(7L);
    assertThat(next.restates()).isEqualTo(Pane.Restatement.of(0, 3L));
  }

  @Test
  void namedAggregatesRestateTheirValueInTheShapeOfThePanesValue() {
    List<Pane> panes = new ArrayList<>();
    NamedAggregates named =
        new NamedAggregates(
            List.of("total", "n"),
            List.<Aggregate<?>>of(
                Aggregates.create(AggregateSpec.of("sum")),
                Aggregates.create(AggregateSpec.of("count"))));
    EventTimeEngine engine =
        new EventTimeEngine(
            lateByDefault(AccumulationMode.ACCUMULATING),
            named,
            new ManualClock(0),
            new PaneOutput() {
              @Override
              public void pane(Pane pane) {
                panes.add(pane);
              }

              @Override
              public void dropped(int element, Window window, DropReason reason) {}
            });
    ElementBatch batch = new ElementBatch(4, 2);
    batch.add("k", 1, new double[] {41, 1}, null, null);
    engine.processBatch(batch);
    engine.advanceWatermark(10);
    batch.clear();
    batch.add("k", 2, new double[] {4, 1}, null, null);
    engine.processBatch(batch);

    Map<String, Object> onTime = new LinkedHashMap<>();
    onTime.put("total", 41L);
    onTime.put("n", 1L);
    assertThat(panes).hasSize(2);
    assertThat(panes.get(0).value()).isEqualTo(onTime);
    assertThat(panes.get(1).restates()).isEqualTo(Pane.Restatement.of(0, onTime));
    assertThat(List.copyOf(((Map<?, ?>) panes.get(1).restates().value()).keySet()))
        .isEqualTo(List.copyOf(((Map<?, ?>) panes.get(1).value()).keySet()));
  }
}
