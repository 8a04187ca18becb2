package io.eventide.engine;

/**
 * Every rule about watermark holds, as Beam keeps them together in its {@code WatermarkHold}: where
 * an element holds the output watermark, when a window holds it at garbage-collection time instead,
 * what a pane's output timestamp is, how merging windows combine their holds, and what holds a
 * key's output watermark back.
 *
 * <p>A window has two holds. The element hold sits where the timestamp combiner puts the output
 * timestamp of the current pane's elements, so that the pane is not late for what follows. The
 * extra hold sits at the window's garbage-collection time, for a pane whose elements could not hold
 * the watermark (they were behind it) and for a closing pane that must come out even when empty.
 * Emitting a pane releases both; a window that goes on holds again for its garbage collection when
 * the closing behaviour asks for a final pane.
 *
 * <p>Each key has its own output watermark (an Eventide extension: Beam keeps one per GroupByKey):
 * the input watermark held back by the key's holds and by its pending event-time timers, as of the
 * end of the last batch or timer round that touched the key.
 *
 * <p>The engine's own output watermark, the lowest over its keys, comes from an index of the keys'
 * holds by time rather than a scan of every key (see {@link #outputWatermark(long, int,
 * Iterable)}).
 */
final class WatermarkHold {
  private final WindowingStrategy strategy;
  private final TimestampCombiner combiner;

  /**
   * The keys whose output watermark a hold keeps back before any of their pending event-time timers
   * ({@link KeyState#elementHeld}), by that hold, earliest first. Only those can fall behind the
   * input watermark unseen: a key held at a timer's time is touched, and its hold recomputed, when
   * the watermark passes the timer and fires it, so after an advance no such key is behind it. A
   * key goes in when it becomes held so or its hold is lowered; an entry is looked at only when it
   * comes first and is before the input watermark, and one whose key's hold has since changed goes,
   * or goes back in at the new time. Under the default trigger and timestamp combiner every hold
   * sits at a timer (the window's end), and the index stays empty. A timer queue because these
   * times, like timers, mostly arrive and are taken in order.
   */
  private TimerQueue heldKeys = new TimerQueue();

  WatermarkHold(WindowingStrategy strategy) {
    this.strategy = strategy;
    this.combiner = strategy.timestampCombiner();
  }

  /** The key's output watermark when the input watermark is {@code inputWatermark}. */
  long outputWatermark(KeyState k, long inputWatermark) {
    return Math.min(inputWatermark, k.holdMin);
  }

  /**
   * Recomputes what holds the key's output watermark back: the earliest hold or pending event-time
   * timer over its windows. A pending timer counts because firing it may emit a pane that the
   * output watermark must not have passed yet.
   */
  void recompute(KeyState k) {
    long holds = WindowState.NO_HOLD;
    long timers = WindowState.NO_HOLD;
    for (WindowState ws = k.windows; ws != null; ws = ws.next) {
      holds = Math.min(holds, Math.min(ws.elementHold, ws.extraHold));
      if ((ws.eventTimers & WindowState.TIMER_AT_END) != 0) {
        timers = Math.min(timers, ws.maxTimestamp());
      }
      if ((ws.eventTimers & WindowState.TIMER_AT_GC) != 0) {
        timers = Math.min(timers, gcTime(ws));
      }
    }
    long min = Math.min(holds, timers);
    boolean held = holds < timers;
    if (held && (!k.elementHeld() || min < k.holdMin)) {
      heldKeys.push(min, k, null);
    }
    k.elementHeld(held);
    k.holdMin = min;
  }

  /**
   * Lists a key read back from durable state by its hold also when a timer holds it (one held
   * otherwise is listed by {@link #recompute} already): an engine being rebuilt has not fired the
   * timers before its input watermark yet.
   */
  void restored(KeyState k) {
    if (!k.elementHeld() && k.holdMin != WindowState.NO_HOLD) {
      heldKeys.push(k.holdMin, k, null);
    }
  }

  /**
   * Holds for an element added to the window: at the element's output timestamp when that can still
   * hold the output watermark, else at garbage-collection time so that the late pane is not dropped
   * as too late downstream.
   */
  void addHolds(KeyState k, WindowState ws, long timestamp, long inputWatermark) {
    long hold = combiner == TimestampCombiner.END_OF_WINDOW ? ws.maxTimestamp() : timestamp;
    if (!addElementHold(k, ws, hold, inputWatermark)) {
      addGcHold(ws, false, inputWatermark);
    }
  }

  /**
   * Holds the key's output watermark at {@code hold} unless that is already behind it, or the
   * window's end is: then no end-of-window firing would come to release it.
   */
  private boolean addElementHold(KeyState k, WindowState ws, long hold, long inputWatermark) {
    long outputWatermark = outputWatermark(k, inputWatermark);
    if (hold < outputWatermark || ws.maxTimestamp() < inputWatermark) {
      return false;
    }
    if (hold > ws.maxTimestamp()) {
      throw Invariants.broken(
          "element hold %d is after the end %d of window [%d, %d)",
          hold, ws.maxTimestamp(), ws.start, ws.end);
    }
    ws.elementHold = combine(ws.elementHold, hold);
    return true;
  }

  /**
   * The lowest output watermark over every key ({@code keyCount} of them, {@code keys}) when the
   * input watermark is {@code inputWatermark}, between batches and timer rounds. Past twice as many
   * entries as keys (holds lowered again and again), the index is rebuilt from the keys.
   */
  long outputWatermark(long inputWatermark, int keyCount, Iterable<KeyState> keys) {
    while (!heldKeys.isEmpty() && heldKeys.peekTime() < inputWatermark) {
      long time = heldKeys.peekTime();
      KeyState k = heldKeys.peekKey();
      if (k.holdMin == time) {
        return time;
      }
      // The key's hold rose, moved to a timer, or its windows are gone.
      heldKeys.pop();
      if (k.elementHeld()) {
        heldKeys.push(k.holdMin, k, null);
      }
    }
    if (heldKeys.size() > 2 * keyCount + REBUILD_SLACK) {
      heldKeys = new TimerQueue();
      for (KeyState k : keys) {
        if (k.elementHeld()) {
          heldKeys.push(k.holdMin, k, null);
        }
      }
    }
    return inputWatermark;
  }

  /** Entries the index may hold beyond twice the keys before it is rebuilt. */
  private static final int REBUILD_SLACK = 1024;

  /**
   * Holds the output watermark at the window's garbage-collection time, unless that has passed or
   * the pane is empty and an empty closing pane would not be emitted.
   */
  private void addGcHold(WindowState ws, boolean paneIsEmpty, long inputWatermark) {
    long gc = gcTime(ws);
    if (gc < inputWatermark) {
      return;
    }
    if (paneIsEmpty && strategy.closingBehavior() == ClosingBehavior.FIRE_IF_NON_EMPTY) {
      return;
    }
    ws.extraHold = Math.min(ws.extraHold, gc);
  }

  /**
   * The output timestamp of the pane the window emits now, releasing the window's holds. A window
   * that is not finished holds again for its garbage collection when its closing pane may be
   * emitted empty.
   */
  long extractAndRelease(WindowState ws, boolean finished, long inputWatermark) {
    long timestamp = Math.min(ws.elementHold, ws.extraHold);
    if (timestamp == WindowState.NO_HOLD || timestamp > ws.maxTimestamp()) {
      // No element could hold the watermark, or the hold was for garbage collection.
      timestamp = ws.maxTimestamp();
    }
    ws.elementHold = WindowState.NO_HOLD;
    ws.extraHold = WindowState.NO_HOLD;
    if (!finished) {
      addGcHold(ws, true, inputWatermark);
    }
    return timestamp;
  }

  /**
   * Moves the holds of merging windows to the result: element holds are combined (or, when they
   * depend only on the window, placed afresh at the result's end), the sources' extra holds go, and
   * the result holds for its garbage collection.
   */
  void onMerge(KeyState k, MergeSources sources, WindowState result, long inputWatermark) {
    int n = sources.count;
    boolean nothingToMerge =
        n == 0 || (n == 1 && sources.resultIsSource && combiner == TimestampCombiner.EARLIEST);
    if (!nothingToMerge) {
      if (combiner == TimestampCombiner.END_OF_WINDOW) {
        for (int i = 0; i < n; i++) {
          sources.windows[i].elementHold = WindowState.NO_HOLD;
        }
        addElementHold(k, result, result.maxTimestamp(), inputWatermark);
      } else {
        long merged = WindowState.NO_HOLD;
        for (int i = 0; i < n; i++) {
          WindowState ws = sources.windows[i];
          merged = combine(merged, ws.elementHold);
          ws.elementHold = WindowState.NO_HOLD;
        }
        if (merged != WindowState.NO_HOLD) {
          // Each part's hold was on time when set, and the output watermark has waited for it.
          if (merged < outputWatermark(k, inputWatermark)) {
            throw Invariants.broken(
                "merged element hold %d of window [%d, %d) is behind the output watermark %d",
                merged, result.start, result.end, outputWatermark(k, inputWatermark));
          }
          result.elementHold = combine(result.elementHold, merged);
        }
      }
    }
    for (int i = 0; i < n; i++) {
      sources.windows[i].extraHold = WindowState.NO_HOLD;
    }
    addGcHold(result, false, inputWatermark);
  }

  private long combine(long a, long b) {
    if (a == WindowState.NO_HOLD) {
      return b;
    }
    if (b == WindowState.NO_HOLD) {
      return a;
    }
    return combiner == TimestampCombiner.LATEST ? Math.max(a, b) : Math.min(a, b);
  }

  /**
   * Checks the holds a window keeps between batches: an element hold lies within the window and so
   * before its garbage collection, and the extra hold is exactly at garbage-collection time. Either
   * past that would keep the output watermark back after the window is gone.
   */
  void checkHolds(WindowState ws) {
    Invariants.check(
        ws.elementHold == WindowState.NO_HOLD || ws.elementHold <= ws.maxTimestamp(),
        "element hold %d of window [%d, %d) is after its end",
        ws.elementHold,
        ws.start,
        ws.end);
    Invariants.check(
        ws.extraHold == WindowState.NO_HOLD || ws.extraHold == gcTime(ws),
        "extra hold %d of window [%d, %d) is not at its garbage-collection time %d",
        ws.extraHold,
        ws.start,
        ws.end,
        gcTime(ws));
  }

  private long gcTime(WindowState ws) {
    return strategy.gcTime(ws.maxTimestamp());
  }
}
