package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.aggregate.Aggregates;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Retracting mode with every aggregate: each pane after the first is preceded by the retraction of
 * exactly what was emitted before, and the panes themselves are the accumulating ones.
 */
class RetractionsPerAggregateTest {
  private static final long MINUTE = 60_000;

  static List<String> aggregates() {
    return Aggregates.TYPES;
  }

  private static EngineTester tester(String aggregate, AccumulationMode mode, WindowFn fn) {
    return EngineTester.of(
        WindowingStrategy.of(fn)
            .withTrigger(new Trigger.Repeatedly(new Trigger.AfterCount(1)))
            .withMode(mode),
        aggregate);
  }

  private static List<Pane> run(String aggregate, AccumulationMode mode) {
    EngineTester t = tester(aggregate, mode, new WindowFn.Fixed(10 * MINUTE, 0));
    t.inject(el(MINUTE, 5)).inject(el(2 * MINUTE, 8)).inject(el(3 * MINUTE, 3));
    return t.takePanes();
  }

  @ParameterizedTest
  @MethodSource("aggregates")
  void eachPaneAfterTheFirstIsPrecededByTheRetractionOfThePreviousOne(String aggregate) {
    List<Pane> retracting = run(aggregate, AccumulationMode.RETRACTING);
    List<Pane> accumulating = run(aggregate, AccumulationMode.ACCUMULATING);

    assertThat(retracting)
        .extracting(Pane::retraction)
        .containsExactly(false, true, false, true, false);
    List<Pane> panes = retracting.stream().filter(p -> !p.retraction()).toList();
    assertThat(panes)
        .extracting(Pane::value)
        .isEqualTo(accumulating.stream().map(Pane::value).toList());
    for (int i = 1; i < retracting.size(); i += 2) {
      Pane retraction = retracting.get(i);
      Pane withdrawn = retracting.get(i - 1);
      assertThat(retraction.value()).isEqualTo(withdrawn.value());
      assertThat(retraction.retracts()).isEqualTo(withdrawn.info().index());
      assertThat(retraction.window()).isEqualTo(withdrawn.window());
    }
  }

  @ParameterizedTest
  @MethodSource("aggregates")
  void aSessionMergeRetractsThePanesOfTheSessionsItSwallows(String aggregate) {
    EngineTester t =
        tester(aggregate, AccumulationMode.RETRACTING, new WindowFn.Session(10 * MINUTE));
    t.inject(el(0, 5)).inject(el(15 * MINUTE, 8));
    List<Pane> before = t.takePanes();
    assertThat(before).hasSize(2).noneMatch(Pane::retraction);

    t.inject(el(8 * MINUTE, 3)); // [8m, 18m) bridges [0, 10m) and [15m, 25m)
    List<Pane> after = t.takePanes();
    assertThat(after).hasSize(3);
    assertThat(after.subList(0, 2))
        .allMatch(Pane::retraction)
        .extracting(Pane::window)
        .containsExactlyInAnyOrder(before.get(0).window(), before.get(1).window());
    assertThat(after.subList(0, 2))
        .extracting(Pane::value)
        .containsExactlyInAnyOrder(before.get(0).value(), before.get(1).value());
    Pane merged = after.get(2);
    assertThat(merged.retraction()).isFalse();
    assertThat(merged.window()).isEqualTo(new Window(0, 25 * MINUTE));
    assertThat(merged.info().index()).isZero();
  }

  @ParameterizedTest
  @MethodSource("additive")
  void signedAdditionOfAdditiveAggregatesGivesTheTotal(String aggregate) {
    List<Pane> retracting = run(aggregate, AccumulationMode.RETRACTING);
    double signed =
        retracting.stream()
            .mapToDouble(p -> (p.retraction() ? -1 : 1) * ((Number) p.value()).doubleValue())
            .sum();
    Pane last = retracting.get(retracting.size() - 1);
    assertThat(signed).isEqualTo(((Number) last.value()).doubleValue());
  }

  static List<String> additive() {
    return List.of("count", "sum");
  }
}
