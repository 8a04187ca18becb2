package io.eventide.beam;

import io.eventide.engine.AccumulationMode;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import io.eventide.engine.WindowingStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Greedy shrinker for a failing scenario: narrows it to one key, drops steps and elements, resets
 * options to Beam's defaults and replaces the trigger by its subtrees, keeping each change only if
 * the scenario still fails. Bounded, because every attempt runs Beam.
 */
final class ScenarioShrinker {
  private static final int MAX_ATTEMPTS = 200;

  private ScenarioShrinker() {}

  /**
   * @param agrees whether the engine agrees with Beam on a scenario
   */
  static Scenario shrink(Scenario failing, Predicate<Scenario> agrees) {
    int[] attempts = {0};
    Predicate<Scenario> fails =
        s -> {
          if (attempts[0]++ >= MAX_ATTEMPTS) {
            return false;
          }
          try {
            BeamRunner.trigger(s.strategy().trigger());
            return !agrees.test(s);
          } catch (BeamRunner.RejectedByBeam
              | BeamRunner.BeamDidNotFinish
              | IllegalArgumentException e) {
            return false; // not a scenario both sides can run
          }
        };
    Scenario current = failing;
    for (String key : failing.keys()) {
      Scenario one = failing.forKey(key);
      if (fails.test(one)) {
        current = new Scenario(failing.id(), one.strategy(), one.steps());
        break;
      }
    }
    boolean progress = true;
    while (progress && attempts[0] < MAX_ATTEMPTS) {
      progress = false;
      for (Scenario candidate : smaller(current)) {
        if (fails.test(candidate)) {
          current = candidate;
          progress = true;
          break;
        }
      }
    }
    return current;
  }

  /** One-step simplifications, most aggressive first. The final end-of-time step always stays. */
  private static List<Scenario> smaller(Scenario s) {
    List<Scenario> out = new ArrayList<>();
    List<Scenario.Step> steps = s.steps();
    for (int i = 0; i < steps.size() - 1; i++) {
      List<Scenario.Step> fewer = new ArrayList<>(steps);
      fewer.remove(i);
      out.add(s.withSteps(fewer));
    }
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i) instanceof Scenario.Events e && e.elements().size() > 1) {
        for (int j = 0; j < e.elements().size(); j++) {
          List<Scenario.Element> els = new ArrayList<>(e.elements());
          els.remove(j);
          List<Scenario.Step> changed = new ArrayList<>(steps);
          changed.set(i, new Scenario.Events(els));
          out.add(s.withSteps(changed));
        }
      }
    }
    WindowingStrategy st = s.strategy();
    for (Trigger sub : subtrees(st.trigger())) {
      out.add(s.withStrategy(st.withTrigger(sub)));
    }
    out.add(s.withStrategy(st.withAllowedLateness(0)));
    out.add(s.withStrategy(st.withMode(AccumulationMode.DISCARDING)));
    out.add(s.withStrategy(st.withTimestampCombiner(TimestampCombiner.END_OF_WINDOW)));
    out.add(s.withStrategy(st.withClosingBehavior(ClosingBehavior.FIRE_IF_NON_EMPTY)));
    out.add(s.withStrategy(st.withOnTimeBehavior(OnTimeBehavior.FIRE_ALWAYS)));
    out.removeIf(c -> c.equals(s));
    return out;
  }

  private static List<Trigger> subtrees(Trigger t) {
    List<Trigger> out = new ArrayList<>();
    for (Trigger c : t.children()) {
      out.add(c);
      out.addAll(subtrees(c));
    }
    return out;
  }
}
