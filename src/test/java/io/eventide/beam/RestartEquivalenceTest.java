package io.eventide.beam;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.AccumulationMode;
import io.eventide.engine.CalendarWindows;
import io.eventide.engine.DropReason;
import io.eventide.engine.ElementBatch;
import io.eventide.engine.EventTimeEngine;
import io.eventide.engine.KeyStateChanges;
import io.eventide.engine.ManualClock;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneOutput;
import io.eventide.engine.Window;
import io.eventide.engine.WindowSnapshot;
import io.eventide.engine.WindowingStrategy;
import io.eventide.engine.aggregate.AggregateSpec;
import io.eventide.engine.aggregate.Aggregates;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Restart equivalence: an engine that is thrown away after every step and rebuilt from the changes
 * it drained (as the live runtime does after a crash, from Redis) emits exactly what one engine run
 * straight through does: the same panes, field for field, the same drops, the same open windows and
 * output watermarks. Random scenarios from {@link ScenarioGenerator}, each with a random
 * accumulation mode (retracting included) and aggregate, and now and then calendar windows. {@code
 * -Deventide.restart.scenarios=N} sets how many (default 400), {@code -Deventide.restart.seed=S}
 * the seed.
 */
class RestartEquivalenceTest {
  private static final int SCENARIOS = Integer.getInteger("eventide.restart.scenarios", 400);
  private static final long SEED = Long.getLong("eventide.restart.seed", 20_260_301L);
  private static final int REPORTED = 3;
  private static final Pattern PROCESSING_TIME = Pattern.compile("processing time is [^;,]*");

  /**
   * Timers due at one instant fire in the order they were set, which a rebuilt engine cannot know,
   * so panes of one step are compared per window; within a window their order is kept.
   */
  private static final Comparator<Pane> BY_WINDOW =
      Comparator.comparing(Pane::key).thenComparing(Pane::window);

  @Test
  void anEngineRebuiltAfterEveryStepEmitsWhatAnUninterruptedOneDoes() {
    ScenarioGenerator generator = new ScenarioGenerator(SEED);
    Random variation = new Random(SEED);
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < SCENARIOS; i++) {
      Scenario scenario = vary(generator.next("restart-" + i), variation);
      String aggregate = Aggregates.TYPES.get(variation.nextInt(Aggregates.TYPES.size()));
      String mismatch = firstMismatch(scenario, aggregate, variation.nextLong());
      if (mismatch != null) {
        failures.add(
            String.format(
                "%n--- %s (seed %d), aggregate %s, %s%n%s%n%s%n",
                scenario.id(),
                SEED,
                aggregate,
                scenario.strategy(),
                ScenarioJson.simulateRequest(scenario),
                mismatch));
      }
    }
    assertThat(failures)
        .as(
            "%d of %d scenarios differ after restarts (seed %d); first ones:%s",
            failures.size(),
            SCENARIOS,
            SEED,
            String.join("", failures.subList(0, Math.min(REPORTED, failures.size()))))
        .isEmpty();
  }

  /** Retracting mode, which the Beam-shaped generator leaves out, and calendar windows. */
  private static Scenario vary(Scenario scenario, Random random) {
    WindowingStrategy strategy =
        scenario.strategy().withMode(AccumulationMode.values()[random.nextInt(3)]);
    if (random.nextInt(8) == 0) {
      strategy =
          new WindowingStrategy(
              new CalendarWindows(
                  CalendarWindows.Unit.DAYS, 1, ZoneOffset.UTC, LocalDate.EPOCH, null),
              strategy.trigger(),
              strategy.mode(),
              strategy.allowedLateness(),
              strategy.timestampCombiner(),
              strategy.closingBehavior(),
              strategy.onTimeBehavior());
    }
    return scenario.withStrategy(strategy);
  }

  /** A description of the first step after which the two engines differ, or null. */
  private static String firstMismatch(Scenario scenario, String aggregate, long orderSeed) {
    Run straight = new Run(scenario.strategy(), aggregate);
    Run restarted = new Run(scenario.strategy(), aggregate);
    restarted.engine.trackChanges();
    Map<String, byte[]> store = new HashMap<>();
    Random order = new Random(orderSeed);
    List<Scenario.Step> steps = scenario.steps();
    for (int i = 0; i < steps.size(); i++) {
      Step expected = straight.apply(steps.get(i));
      Step actual = restarted.apply(steps.get(i));
      restarted.engine.drainChanges(into(store));
      restarted = restarted.rebuiltFrom(store, order.nextBoolean());
      if (!expected.equals(actual)) {
        return "after step "
            + i
            + " "
            + steps.get(i)
            + "\nexpected "
            + expected
            + "\nactual   "
            + actual;
      }
      String state = straight.differenceTo(restarted);
      if (state != null) {
        return "after step " + i + " " + steps.get(i) + ": " + state;
      }
    }
    return null;
  }

  private static KeyStateChanges into(Map<String, byte[]> store) {
    return new KeyStateChanges() {
      @Override
      public void changed(String key, byte[] state) {
        store.put(key, state);
      }

      @Override
      public void removed(String key) {
        assertThat(store.remove(key)).as("state of removed key %s", key).isNotNull();
      }
    };
  }

  /** What one step produced. */
  private record Step(List<Pane> panes, List<Dropped> dropped) {}

  private record Dropped(int element, Window window, DropReason reason) {}

  /** One engine with its clock and outputs. */
  private static final class Run implements PaneOutput {
    private final WindowingStrategy strategy;
    private final String aggregate;
    private final ManualClock clock = new ManualClock(0);
    private final ElementBatch batch = new ElementBatch(8);
    private final EventTimeEngine engine;
    private final List<Pane> panes = new ArrayList<>();
    private final List<Dropped> dropped = new ArrayList<>();

    Run(WindowingStrategy strategy, String aggregate) {
      this.strategy = strategy;
      this.aggregate = aggregate;
      this.engine =
          new EventTimeEngine(
              strategy, Aggregates.create(AggregateSpec.of(aggregate)), clock, this);
    }

    @Override
    public void pane(Pane pane) {
      panes.add(pane);
    }

    @Override
    public void dropped(int element, Window window, DropReason reason) {
      dropped.add(new Dropped(element, window, reason));
    }

    Step apply(Scenario.Step step) {
      if (step instanceof Scenario.Events e) {
        batch.clear();
        for (Scenario.Element el : e.elements()) {
          batch.add(el.key(), el.timestamp(), el.value(), (long) el.value(), Double.NaN);
        }
        engine.processBatch(batch);
      } else if (step instanceof Scenario.Watermark w) {
        engine.advanceWatermark(w.time());
      } else if (step instanceof Scenario.ProcessingTime p) {
        clock.set(p.time());
        engine.fireProcessingTimers();
      }
      List<Pane> out = new ArrayList<>(panes);
      out.sort(BY_WINDOW);
      Step result = new Step(out, List.copyOf(dropped));
      panes.clear();
      dropped.clear();
      return result;
    }

    /** A fresh engine, at this one's clock, from the stored keys and the input watermark. */
    Run rebuiltFrom(Map<String, byte[]> store, boolean watermarkFirst) {
      Run next = new Run(strategy, aggregate);
      next.clock.set(clock.now());
      next.engine.trackChanges();
      if (watermarkFirst) {
        next.engine.restoreInputWatermark(engine.inputWatermark());
      }
      store.forEach(next.engine::restoreKey);
      if (!watermarkFirst) {
        next.engine.restoreInputWatermark(engine.inputWatermark());
      }
      return next;
    }

    /** How the other engine's windows or watermarks differ from this one's, or null. */
    String differenceTo(Run other) {
      List<String> mine = explain(engine);
      List<String> theirs = explain(other.engine);
      if (!mine.equals(theirs)) {
        return "windows\nexpected " + mine + "\nactual   " + theirs;
      }
      for (WindowSnapshot w : engine.explain(null)) {
        if (engine.outputWatermark(w.key()) != other.engine.outputWatermark(w.key())) {
          return "output watermark of key " + w.key();
        }
      }
      if (engine.keyCount() != other.engine.keyCount()) {
        return "key count " + engine.keyCount() + " vs " + other.engine.keyCount();
      }
      return null;
    }

    /**
     * The windows as explained, less the processing time, which a rebuilt engine only learns from
     * the clock at its first input.
     */
    private static List<String> explain(EventTimeEngine engine) {
      return engine.explain(null).stream()
          .map(w -> PROCESSING_TIME.matcher(w.toString()).replaceAll(""))
          .toList();
    }
  }
}
