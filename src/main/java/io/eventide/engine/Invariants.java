package io.eventide.engine;

/**
 * The engine's self-checks: cheap tests of what it assumes about holds and timers, in the way
 * Beam's runner checks its own. A broken assumption (a timer in the past, a window that no timer
 * will ever collect, a hold past the window's garbage collection) would otherwise show up much
 * later, as a wrong pane or as state and holds that are never freed.
 *
 * <p>As in Beam, the checks that cost O(1) always run: a timer's time, a hold within its window,
 * the order of pane timings. Each tests its condition first and formats (and boxes) nothing unless
 * it fails, so a passing check costs a comparison. The checks that walk a key's windows after every
 * batch ({@link #checkSettled}, {@link #checkStored}) are {@link #THOROUGH}: on when Java
 * assertions are enabled for the engine (surefire's default, so in every test) or when the JVM runs
 * with {@code -Deventide.engine.checks=true}; off otherwise, behind a constant the JIT folds.
 */
final class Invariants {
  static final boolean THOROUGH =
      Invariants.class.desiredAssertionStatus() || Boolean.getBoolean("eventide.engine.checks");

  private final WindowingStrategy strategy;
  private final TriggerMachine machine;
  private final WatermarkHold holds;

  /** Whether the root trigger fires on time by an end-of-window timer the engine must keep set. */
  private final boolean rootWaitsForEndOfWindow;

  Invariants(WindowingStrategy strategy, TriggerMachine machine, WatermarkHold holds) {
    this.strategy = strategy;
    this.machine = machine;
    this.holds = holds;
    this.rootWaitsForEndOfWindow =
        machine.root instanceof DefaultTriggerNode
            || machine.root instanceof AfterWatermarkTriggerNode
            || machine.root instanceof AfterWatermarkWithFiringsTriggerNode;
  }

  /**
   * Throws when {@code ok} is false; the message is only formatted then. For the thorough checks:
   * the always-on ones test their condition before calling {@link #broken}, so that passing
   * allocates nothing.
   *
   * @throws IllegalStateException naming the broken assumption
   */
  static void check(boolean ok, String format, Object... args) {
    if (!ok) {
      throw broken(format, args);
    }
  }

  /** The exception for a broken assumption, to throw. */
  static IllegalStateException broken(String format, Object... args) {
    return new IllegalStateException("engine invariant broken: " + String.format(format, args));
  }

  /**
   * A window's panes go EARLY, then at most one ON_TIME, then LATE, never back (Beam's runner
   * checks the same when it builds a pane's info).
   */
  static void checkTimingOrder(Timing last, Timing next, WindowState ws) {
    if (last != null
        && (next.ordinal() < last.ordinal() || next == last && last == Timing.ON_TIME)) {
      throw broken("a %s pane of window [%d, %d) follows a %s pane", next, ws.start, ws.end, last);
    }
  }

  /**
   * An event-time timer is at the window's end or at its garbage collection (the pending-timer bits
   * record no other time), and never behind the input watermark: it would fire at the next advance,
   * after the panes it should have come before.
   */
  void checkEventTimer(WindowState ws, long time, long inputWatermark) {
    if (time != ws.maxTimestamp() && time != gcTime(ws)) {
      throw broken(
          "event-time timer at %d for window [%d, %d) is neither at its end nor at its garbage"
              + " collection",
          time, ws.start, ws.end);
    }
    if (time < inputWatermark) {
      throw broken(
          "event-time timer at %d for window [%d, %d) is behind the input watermark %d",
          time, ws.start, ws.end, inputWatermark);
    }
  }

  /**
   * What holds for a key at the end of every batch and timer round: what {@link #checkStored}
   * checks, and an end-of-window timer for each open window whose watermark trigger still waits for
   * its end.
   */
  void checkSettled(KeyState k, long inputWatermark) {
    checkStored(k);
    if (!rootWaitsForEndOfWindow) {
      return;
    }
    for (WindowState ws = k.windows; ws != null; ws = ws.next) {
      boolean waiting = ws.active && !machine.isClosed(ws) && inputWatermark <= ws.maxTimestamp();
      check(
          !waiting || (ws.eventTimers & WindowState.TIMER_AT_END) != 0,
          "open window [%d, %d) of key '%s' has no end-of-window timer: it would never fire on time",
          ws.start,
          ws.end,
          k.key);
    }
  }

  /**
   * The output watermark the engine keeps without a scan is the one a scan of every key's holds and
   * pending timers gives.
   */
  void checkOutputWatermark(long indexed, Iterable<KeyState> keys, long inputWatermark) {
    long scanned = inputWatermark;
    for (KeyState k : keys) {
      scanned = Math.min(scanned, holds.outputWatermark(k, inputWatermark));
    }
    check(
        indexed == scanned,
        "output watermark %d from the hold index differs from %d over every key's holds",
        indexed,
        scanned);
  }

  /**
   * What holds for every window a key keeps, whatever the watermarks (so also for a key just
   * restored): sound holds, and a pending garbage-collection timer, without which the window's
   * state would never be freed and its holds would keep the output watermark back for good.
   */
  void checkStored(KeyState k) {
    for (WindowState ws = k.windows; ws != null; ws = ws.next) {
      holds.checkHolds(ws);
      byte gcBit =
          gcTime(ws) == ws.maxTimestamp() ? WindowState.TIMER_AT_END : WindowState.TIMER_AT_GC;
      check(
          (ws.eventTimers & gcBit) != 0,
          "window [%d, %d) of key '%s' has no garbage-collection timer",
          ws.start,
          ws.end,
          k.key);
    }
  }

  private long gcTime(WindowState ws) {
    return strategy.gcTime(ws.maxTimestamp());
  }
}
