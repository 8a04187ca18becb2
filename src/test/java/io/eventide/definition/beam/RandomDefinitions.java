package io.eventide.definition.beam;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.WindowDefinition;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.CalendarWindows;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import io.eventide.engine.Trigger.AfterAll;
import io.eventide.engine.Trigger.AfterCount;
import io.eventide.engine.Trigger.AfterEach;
import io.eventide.engine.Trigger.AfterFirst;
import io.eventide.engine.Trigger.AfterProcessingTime;
import io.eventide.engine.Trigger.AfterWatermark;
import io.eventide.engine.Trigger.Never;
import io.eventide.engine.Trigger.OrFinally;
import io.eventide.engine.Trigger.Repeatedly;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Valid definitions drawn at random, for the round-trip properties. */
public final class RandomDefinitions {
  private static final long[] DELAYS = {
    0, 1, 250, 1_000, 90_000, 3_600_000, 2 * 86_400_000L, 1_234_567
  };
  private static final List<ZoneId> ZONES =
      List.of(
          ZoneId.of("UTC"),
          ZoneId.of("Europe/Berlin"),
          ZoneId.of("America/New_York"),
          ZoneId.of("Asia/Kolkata"));
  private static final List<LocalDate> STARTS =
      List.of(
          LocalDate.of(1970, 1, 1),
          LocalDate.of(2026, 3, 15),
          LocalDate.of(2024, 2, 29),
          LocalDate.of(2026, 1, 31));

  private RandomDefinitions() {}

  /** A trigger of at most {@code depth} levels; single-fire if {@code once}. */
  public static Trigger trigger(Random r, int depth, boolean once) {
    int kind = r.nextInt(depth == 0 ? 5 : 11);
    return switch (kind) {
      case 0 -> new AfterCount(1 + r.nextInt(1000));
      case 1 -> new AfterProcessingTime(DELAYS[r.nextInt(DELAYS.length)]);
      case 2 -> new Never();
      case 3 -> new AfterWatermark(null, null);
      case 4 -> once ? new AfterCount(1) : new Trigger.Default();
      // Their sub-triggers may be any trigger (Beam's List overloads).
      case 5 -> new AfterFirst(triggers(r, depth, r.nextBoolean()));
      case 6 -> new AfterAll(triggers(r, depth, r.nextBoolean()));
      // orFinally is never single-fire (Beam's types), so it only stands where repeating may.
      case 7 ->
          once
              ? new AfterCount(1 + r.nextInt(1000))
              : new OrFinally(trigger(r, depth - 1, false), trigger(r, depth - 1, true));
      case 8 ->
          once
              ? new AfterFirst(triggers(r, depth, r.nextBoolean()))
              : new Repeatedly(trigger(r, depth - 1, false));
      case 9 ->
          once
              ? new AfterAll(triggers(r, depth, r.nextBoolean()))
              : new AfterEach(triggers(r, depth, false));
      default ->
          once
              ? new AfterWatermark(null, null)
              : new AfterWatermark(
                  r.nextBoolean() ? trigger(r, depth - 1, true) : null,
                  trigger(r, depth - 1, true));
    };
  }

  private static List<Trigger> triggers(Random r, int depth, boolean once) {
    List<Trigger> list = new ArrayList<>();
    for (int i = 2 + r.nextInt(2); i > 0; i--) {
      list.add(trigger(r, depth - 1, once));
    }
    return list;
  }

  public static WindowDefinition window(Random r) {
    Duration period = Duration.ofMillis(DELAYS[1 + r.nextInt(DELAYS.length - 1)]);
    Duration offset = Duration.ofMillis(r.nextInt((int) Math.min(period.toMillis(), 10_000)));
    return switch (r.nextInt(5)) {
      case 0 -> new WindowDefinition.Fixed(period, offset);
      case 1 -> new WindowDefinition.Sliding(period.multipliedBy(1 + r.nextInt(5)), period, offset);
      case 2 -> new WindowDefinition.Session(period);
      case 3 -> new WindowDefinition.Global();
      default -> {
        CalendarWindows.Unit unit =
            CalendarWindows.Unit.values()[r.nextInt(CalendarWindows.Unit.values().length)];
        yield new WindowDefinition.Calendar(
            unit,
            1 + r.nextInt(12),
            ZONES.get(r.nextInt(ZONES.size())),
            STARTS.get(r.nextInt(STARTS.size())),
            unit == CalendarWindows.Unit.WEEKS ? DayOfWeek.of(1 + r.nextInt(7)) : null);
      }
    };
  }

  private static final long[] LATENESS = {0, 0, 1, 250, 60_000, 86_400_000L};

  /**
   * {@code base} with its windowing drawn at random: window, trigger, accumulation, lateness,
   * timestamp combiner, closing and on-time behavior.
   */
  public static PipelineDefinition windowing(Random r, PipelineDefinition base) {
    return new PipelineDefinition(
        base.name(),
        window(r),
        trigger(r, 3, false),
        pick(r, AccumulationMode.values()),
        Duration.ofMillis(LATENESS[r.nextInt(LATENESS.length)]),
        pick(r, TimestampCombiner.values()),
        pick(r, ClosingBehavior.values()),
        pick(r, OnTimeBehavior.values()),
        base.aggregate(),
        base.aggregates(),
        base.filter(),
        base.event(),
        base.watermark(),
        base.sinks(),
        base.source(),
        base.stream(),
        base.revision());
  }

  private static <T> T pick(Random r, T[] values) {
    return values[r.nextInt(values.length)];
  }
}
