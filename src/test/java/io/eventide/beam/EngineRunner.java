package io.eventide.beam;

import io.eventide.engine.EngineTester;
import io.eventide.engine.Pane;
import java.util.ArrayList;
import java.util.List;

/** Runs a {@link Scenario} through Eventide's engine via the test harness. */
final class EngineRunner {
  private EngineRunner() {}

  /** Every pane the engine emits for the scenario, sorted (a multiset in canonical order). */
  static List<ObservedPane> run(Scenario scenario) {
    EngineTester tester = EngineTester.of(scenario.strategy());
    for (Scenario.Step step : scenario.steps()) {
      if (step instanceof Scenario.Events e) {
        tester.inject(
            e.elements().stream()
                .map(el -> EngineTester.el(el.key(), el.timestamp(), el.value()))
                .toArray(EngineTester.Element[]::new));
      } else if (step instanceof Scenario.Watermark w) {
        tester.advanceWatermark(w.time());
      } else if (step instanceof Scenario.ProcessingTime p) {
        tester.advanceProcessingTime(p.time());
      }
    }
    List<ObservedPane> out = new ArrayList<>();
    for (Pane p : tester.takePanes()) {
      out.add(
          new ObservedPane(
              p.key(),
              p.window().start(),
              p.window().end(),
              values(p.value()),
              p.timestamp(),
              p.info().index(),
              p.info().nonSpeculativeIndex(),
              p.info().timing(),
              p.info().first(),
              p.info().last()));
    }
    out.sort(null);
    return out;
  }

  private static List<Integer> values(Object collected) {
    List<Integer> values = new ArrayList<>();
    for (Object o : (List<?>) collected) {
      values.add(((Number) o).intValue());
    }
    return values;
  }
}
