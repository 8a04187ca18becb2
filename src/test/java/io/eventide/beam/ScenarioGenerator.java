package io.eventide.beam;

import io.eventide.engine.AccumulationMode;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.Time;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import io.eventide.engine.WindowFn;
import io.eventide.engine.WindowingStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random scenarios: a window kind, a trigger tree from the whole grammar, the windowing
 * options, and a timeline of batches (on time, late and expired), watermark and processing-time
 * advances, ending with the watermark at the end of time. Times are whole seconds, sometimes with a
 * millisecond part, so that window boundaries and timer instants are hit exactly as often as they
 * are missed.
 */
final class ScenarioGenerator {
  static final long SECOND = 1_000;
  private static final int MAX_TRIGGER_DEPTH = 3;
  private static final String[] KEYS = {"a", "b", "c"};

  /**
   * Where the timelines start. Far enough after the epoch that no element is ever before it: Beam's
   * FixedWindows and SlidingWindows compute the window start with Java's {@code %}, which puts a
   * timestamp more than one size (period) before the epoch into the wrong window.
   */
  private static final long ORIGIN = 200 * SECOND;

  private final Random random;
  private int nextValue;

  ScenarioGenerator(long seed) {
    this.random = new Random(seed);
  }

  Scenario next(String id) {
    WindowingStrategy strategy =
        new WindowingStrategy(
            windowFn(),
            trigger(0, false),
            random.nextBoolean() ? AccumulationMode.DISCARDING : AccumulationMode.ACCUMULATING,
            pick(0L, 0L, 10 * SECOND, 30 * SECOND),
            pick(TimestampCombiner.values()),
            pick(ClosingBehavior.values()),
            pick(OnTimeBehavior.values()));
    return new Scenario(id, strategy, steps());
  }

  private WindowFn windowFn() {
    return switch (random.nextInt(4)) {
      case 0 ->
          new WindowFn.Fixed(
              pick(10L, 20L, 60L) * SECOND, random.nextInt(3) == 0 ? pick(3L, 7L) * SECOND : 0);
      case 1 -> {
        // Includes a size that is not a multiple of the period (1 or 2 windows per element).
        long[][] shapes = {{20, 10}, {30, 10}, {25, 10}, {30, 20}};
        long[] shape = shapes[random.nextInt(shapes.length)];
        yield new WindowFn.Sliding(shape[0] * SECOND, shape[1] * SECOND, 0);
      }
      case 2 -> new WindowFn.Session(pick(5L, 10L) * SECOND);
      default -> new WindowFn.Global();
    };
  }

  /**
   * A random trigger tree. Where {@code once} is asked for (early, late and until), only trees our
   * grammar classifies as once are produced; Beam's typing then has the final word (see {@link
   * BeamRunner#trigger}). The children of afterFirst and afterAll can be any trigger, as Beam's
   * List overloads allow.
   */
  Trigger trigger(int depth, boolean once) {
    boolean leaf = depth >= MAX_TRIGGER_DEPTH;
    int choice = random.nextInt(leaf ? 4 : once ? 7 : 12);
    return switch (choice) {
      case 0 -> new Trigger.AfterWatermark(null, null);
      case 1 -> new Trigger.AfterProcessingTime(pick(5L, 10L, 30L) * SECOND);
      case 2 -> new Trigger.AfterCount(1 + random.nextInt(3));
      case 3 -> random.nextInt(3) == 0 ? new Trigger.Never() : new Trigger.AfterCount(1);
      case 4 -> new Trigger.AfterFirst(children(depth));
      case 5 -> new Trigger.AfterAll(children(depth));
      case 6 ->
          // Rarely where a once trigger is required: Beam types orFinally as never "once".
          once && random.nextInt(4) != 0
              ? new Trigger.AfterCount(2)
              : new Trigger.OrFinally(trigger(depth + 1, once), trigger(depth + 1, true));
      case 7 -> new Trigger.Default();
      case 8, 9 ->
          new Trigger.AfterWatermark(
              random.nextInt(3) == 0 ? null : trigger(depth + 1, true),
              random.nextInt(3) == 0 ? null : trigger(depth + 1, true));
      case 10 -> new Trigger.Repeatedly(trigger(depth + 1, false));
      default -> new Trigger.AfterEach(children(depth));
    };
  }

  private List<Trigger> children(int depth) {
    List<Trigger> out = new ArrayList<>();
    int n = 2 + random.nextInt(2);
    for (int i = 0; i < n; i++) {
      out.add(trigger(depth + 1, false));
    }
    return out;
  }

  private List<Scenario.Step> steps() {
    List<String> keys = List.of(KEYS).subList(0, 1 + random.nextInt(KEYS.length));
    List<Scenario.Step> steps = new ArrayList<>();
    long watermark = Time.MIN;
    long processingTime = 0;
    int n = 4 + random.nextInt(10);
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(10);
      if (kind < 5) {
        steps.add(batch(keys, watermark == Time.MIN ? ORIGIN : watermark));
      } else if (kind < 8) {
        watermark =
            watermark == Time.MIN
                ? ORIGIN + time(random.nextInt(20))
                : watermark
                    + (random.nextInt(5) == 0
                        // A long jump: end-of-window and GC timers of several windows fire at once.
                        ? time(60 + random.nextInt(90))
                        : time(1 + random.nextInt(30)));
        steps.add(new Scenario.Watermark(watermark));
      } else {
        // Sometimes exactly a trigger delay, to hit "strictly past" at the boundary.
        processingTime +=
            random.nextBoolean() ? pick(5L, 10L, 30L) * SECOND : time(1 + random.nextInt(40));
        steps.add(new Scenario.ProcessingTime(processingTime));
      }
    }
    steps.add(new Scenario.Watermark(Time.MAX));
    return steps;
  }

  private Scenario.Events batch(List<String> keys, long reference) {
    List<Scenario.Element> elements = new ArrayList<>();
    int n = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(20);
      long timestamp;
      if (kind < 12) {
        timestamp = reference + time(random.nextInt(40));
      } else if (kind < 17) {
        timestamp = reference - time(1 + random.nextInt(30));
      } else {
        timestamp = reference - time(30 + random.nextInt(70));
      }
      elements.add(new Scenario.Element(pick(keys), timestamp, nextValue++));
    }
    return new Scenario.Events(elements);
  }

  /** Whole seconds, now and then with a millisecond part. */
  private long time(int seconds) {
    return seconds * SECOND + (random.nextInt(4) == 0 ? random.nextInt(1000) : 0);
  }

  @SafeVarargs
  private <T> T pick(T... options) {
    return options[random.nextInt(options.length)];
  }

  private <T> T pick(List<T> options) {
    return options.get(random.nextInt(options.size()));
  }
}
