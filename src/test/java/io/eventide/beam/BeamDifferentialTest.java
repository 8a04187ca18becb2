package io.eventide.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.Trigger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.transforms.windowing.Trigger.OnceTrigger;
import org.junit.jupiter.api.Test;

/**
 * Differential test: seeded random scenarios run through Eventide's engine and through Apache
 * Beam's DirectRunner must produce the same multiset of panes (window, elements, timestamp and pane
 * info), key by key. {@code -Deventide.diff.scenarios=N} sets how many scenarios are compared
 * (default 300), {@code -Deventide.diff.seed=S} the seed. A mismatch is shrunk and printed as a
 * {@code /simulate} request with both pane lists.
 */
class BeamDifferentialTest {
  private static final int SCENARIOS = Integer.getInteger("eventide.diff.scenarios", 300);
  private static final long SEED = Long.getLong("eventide.diff.seed", 20_260_101L);

  /** Mismatches shrunk and printed in full; the rest are only counted, as shrinking costs runs. */
  private static final int REPORTED = 5;

  @Test
  void isOnceAgreesWithBeamsOnceTriggerClassification() {
    ScenarioGenerator generator = new ScenarioGenerator(SEED);
    Map<String, String> disagreements = new LinkedHashMap<>();
    for (int i = 0; i < 2_000; i++) {
      collectDisagreements(generator.trigger(0, false), disagreements);
    }
    assertThat(disagreements)
        .as("Trigger.isOnce() versus Beam's OnceTrigger, per trigger shape")
        .isEmpty();
  }

  /** Every node Beam can build is checked on its own: its Beam type decides "once". */
  private static void collectDisagreements(Trigger t, Map<String, String> out) {
    t.children().forEach(c -> collectDisagreements(c, out));
    boolean beamOnce;
    try {
      beamOnce = BeamRunner.trigger(t) instanceof OnceTrigger;
    } catch (BeamRunner.RejectedByBeam e) {
      return; // a descendant is misclassified; that node is reported itself
    }
    if (beamOnce != t.isOnce()) {
      out.putIfAbsent(
          t.getClass().getSimpleName() + " isOnce=" + t.isOnce(),
          ScenarioJson.trigger(t)
              + " : ours isOnce="
              + t.isOnce()
              + ", Beam OnceTrigger="
              + beamOnce);
    }
  }

  @Test
  void enginePanesEqualBeamPanes() {
    ScenarioGenerator generator = new ScenarioGenerator(SEED);
    int compared = 0;
    int composite = 0;
    int rejectedByBeam = 0;
    List<Scenario> mismatches = new ArrayList<>();
    List<Scenario> unfinished = new ArrayList<>();
    long started = System.nanoTime();
    for (int i = 0; compared < SCENARIOS; i++) {
      Scenario scenario = generator.next("s" + i);
      try {
        BeamRunner.trigger(scenario.strategy().trigger());
      } catch (BeamRunner.RejectedByBeam e) {
        rejectedByBeam++;
        continue;
      }
      try {
        if (!agrees(scenario)) {
          mismatches.add(scenario);
        }
      } catch (BeamRunner.BeamDidNotFinish e) {
        unfinished.add(scenario);
        continue;
      }
      compared++;
      if (hasCompositeOfRepeating(scenario.strategy().trigger())) {
        composite++;
      }
    }
    StringBuilder report = new StringBuilder();
    for (Scenario m : mismatches.subList(0, Math.min(REPORTED, mismatches.size()))) {
      report.append(describe(ScenarioShrinker.shrink(m, BeamDifferentialTest::agrees)));
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    for (Scenario u : unfinished) {
      System.out.printf(
          "Beam's DirectRunner did not finish %s:%n%s%n", u.id(), ScenarioJson.simulateRequest(u));
    }
    System.out.printf(
        "Beam differential: seed %d, %d scenarios compared (%d with an afterFirst or afterAll over"
            + " a sub-trigger that is not single-fire), %d skipped (Beam rejects the trigger by"
            + " type), %d not finished by Beam, %d mismatches, %.1f s%n",
        SEED, compared, composite, rejectedByBeam, unfinished.size(), mismatches.size(), seconds);
    assertThat(mismatches)
        .as(
            "%d of %d scenarios differ from Beam (seed %d); first ones, shrunk:%n%s",
            mismatches.size(), compared, SEED, report)
        .isEmpty();
  }

  /** Whether an afterFirst or afterAll in the tree has a sub-trigger that is not single-fire. */
  private static boolean hasCompositeOfRepeating(Trigger t) {
    boolean here =
        (t instanceof Trigger.AfterFirst || t instanceof Trigger.AfterAll)
            && !t.children().stream().allMatch(Trigger::isOnce);
    return here || t.children().stream().anyMatch(BeamDifferentialTest::hasCompositeOfRepeating);
  }

  /** Whether the engine's panes equal Beam's, each key run through Beam on its own. */
  static boolean agrees(Scenario scenario) {
    return EngineRunner.run(scenario).equals(beamPanes(scenario));
  }

  private static List<ObservedPane> beamPanes(Scenario scenario) {
    List<ObservedPane> out = new ArrayList<>();
    for (String key : scenario.keys()) {
      out.addAll(BeamRunner.run(scenario.forKey(key)));
    }
    out.sort(null);
    return out;
  }

  private static String describe(Scenario s) {
    return String.format(
        "%n--- %s%n/simulate request:%n%s%nBeam panes:%n%s%nEventide panes:%n%s%n",
        s.id(),
        ScenarioJson.simulateRequest(s),
        ScenarioJson.panes(beamPanes(s)),
        ScenarioJson.panes(EngineRunner.run(s)));
  }
}
