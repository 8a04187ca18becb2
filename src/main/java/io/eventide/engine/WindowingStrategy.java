package io.eventide.engine;

/**
 * Everything that decides which panes a window emits.
 *
 * @param allowedLateness how long after the end of a window late data is still accepted (ms)
 */
public record WindowingStrategy(
    WindowFn windowFn,
    Trigger trigger,
    AccumulationMode mode,
    long allowedLateness,
    TimestampCombiner timestampCombiner,
    ClosingBehavior closingBehavior,
    OnTimeBehavior onTimeBehavior) {

  public WindowingStrategy {
    if (allowedLateness < 0) {
      throw new IllegalArgumentException("allowedLateness must not be negative");
    }
  }

  /** Beam's defaults: default trigger, discarding, no lateness, end-of-window timestamps. */
  public static WindowingStrategy of(WindowFn windowFn) {
    return new WindowingStrategy(
        windowFn,
        new Trigger.Default(),
        AccumulationMode.DISCARDING,
        0,
        TimestampCombiner.END_OF_WINDOW,
        ClosingBehavior.FIRE_IF_NON_EMPTY,
        OnTimeBehavior.FIRE_ALWAYS);
  }

  public WindowingStrategy withTrigger(Trigger t) {
    return new WindowingStrategy(
        windowFn, t, mode, allowedLateness, timestampCombiner, closingBehavior, onTimeBehavior);
  }

  public WindowingStrategy withMode(AccumulationMode m) {
    return new WindowingStrategy(
        windowFn, trigger, m, allowedLateness, timestampCombiner, closingBehavior, onTimeBehavior);
  }

  public WindowingStrategy withAllowedLateness(long lateness) {
    return new WindowingStrategy(
        windowFn, trigger, mode, lateness, timestampCombiner, closingBehavior, onTimeBehavior);
  }

  public WindowingStrategy withTimestampCombiner(TimestampCombiner c) {
    return new WindowingStrategy(
        windowFn, trigger, mode, allowedLateness, c, closingBehavior, onTimeBehavior);
  }

  public WindowingStrategy withClosingBehavior(ClosingBehavior c) {
    return new WindowingStrategy(
        windowFn, trigger, mode, allowedLateness, timestampCombiner, c, onTimeBehavior);
  }

  public WindowingStrategy withOnTimeBehavior(OnTimeBehavior o) {
    return new WindowingStrategy(
        windowFn, trigger, mode, allowedLateness, timestampCombiner, closingBehavior, o);
  }

  /**
   * The garbage-collection time of a window: its max timestamp plus the allowed lateness, capped so
   * that every window is collected before the end of time.
   */
  public long gcTime(Window window) {
    return gcTime(window.maxTimestamp());
  }

  /** {@link #gcTime(Window)} for a window with the given max timestamp. */
  public long gcTime(long max) {
    if (max >= Time.GLOBAL_MAX_TIMESTAMP - allowedLateness) {
      return Time.GLOBAL_MAX_TIMESTAMP;
    }
    return max + allowedLateness;
  }
}
