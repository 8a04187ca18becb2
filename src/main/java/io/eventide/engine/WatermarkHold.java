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
 * <p>The engine's own output watermark, the lowest over its keys, comes from an index of element
 * holds by time rather than a scan of every key (see {@link #earliestElementHold}).
 */
final class WatermarkHold {
  private final WindowingStrategy strategy;
  private final TimestampCombiner combiner;

  /**
   * Every element hold set, at the time it was set, oldest first: a hold goes in when it is set or
   * lowered and is dropped only when it comes first and no longer stands. A timer queue because
   * holds, like timers, mostly arrive in the order of time and are taken in that order: in a
   * tumbling window every key's hold is the same window end, set and taken without sorting.
   */
  private TimerQueue elementHolds = new TimerQueue();

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
    long min = WindowState.NO_HOLD;
    for (WindowState ws = k.windows; ws != null; ws = ws.next) {
      min = Math.min(min, Math.min(ws.elementHold, ws.extraHold));
      if ((ws.eventTimers & WindowState.TIMER_AT_END) != 0) {
        min = Math.min(min, ws.maxTimestamp());
      }
      if ((ws.eventTimers & WindowState.TIMER_AT_GC) != 0) {
        min = Math.min(min, gcTime(ws));
      }
    }
    k.holdMin = min;
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
    setElementHold(k, ws, combine(ws.elementHold, hold));
    return true;
  }

  /**
   * Sets the window's element hold, indexing it when it is new or lower: a hold that rose keeps an
   * earlier entry, which is lower and so still bounds it (see {@link #earliestElementHold}).
   */
  private void setElementHold(KeyState k, WindowState ws, long hold) {
    long before = ws.elementHold;
    ws.elementHold = hold;
    if (hold != WindowState.NO_HOLD && (before == WindowState.NO_HOLD || hold < before)) {
      elementHolds.push(hold, k, ws);
    }
  }

  /** Indexes the element holds of a key read back from durable state. */
  void restored(KeyState k) {
    for (WindowState ws = k.windows; ws != null; ws = ws.next) {
      if (ws.elementHold != WindowState.NO_HOLD) {
        elementHolds.push(ws.elementHold, k, ws);
      }
    }
  }

  /**
   * The earliest element hold of any window, or {@code inputWatermark} when none is before it: all
   * the engine's output watermark needs of the holds, since every other hold and every pending
   * event-time timer is at or after the input watermark once a watermark advance has fired what it
   * passed. Entries that no longer stand (the hold was released or rose, the window is gone) are
   * dropped as they come first, a risen hold going back in at its new time; past twice the open
   * windows (holds set again after early panes), the index is rebuilt from {@code keys}.
   */
  long earliestElementHold(long inputWatermark, int openWindows, Iterable<KeyState> keys) {
    while (!elementHolds.isEmpty() && elementHolds.peekTime() < inputWatermark) {
      long time = elementHolds.peekTime();
      WindowState ws = elementHolds.peekWindow();
      if (!ws.isRemoved() && ws.elementHold == time) {
        return time;
      }
      KeyState k = elementHolds.peekKey();
      elementHolds.pop();
      if (!ws.isRemoved() && ws.elementHold != WindowState.NO_HOLD) {
        elementHolds.push(ws.elementHold, k, ws);
      }
    }
    if (elementHolds.size() > 2 * openWindows + REBUILD_SLACK) {
      elementHolds = new TimerQueue();
      for (KeyState k : keys) {
        restored(k);
      }
    }
    return inputWatermark;
  }

  /** Entries the index may hold beyond twice the open windows before it is rebuilt. */
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
          setElementHold(k, result, combine(result.elementHold, merged));
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
