package io.eventide.engine;

import java.util.Arrays;

/**
 * Everything the engine keeps for one window of one key: the accumulator, the watermark holds, the
 * trigger's finished bits and slots, which timers are pending and the last pane emitted. Fields are
 * plain and package-private because this is the hot path's data; only the engine writes them, the
 * holds through {@link WatermarkHold} and the trigger state through the trigger nodes.
 */
final class WindowState {
  static final long NO_HOLD = Long.MAX_VALUE;

  /** Bit of {@link #eventTimers}: a timer at the window's max timestamp. */
  static final byte TIMER_AT_END = 1;

  /** Bit of {@link #eventTimers}: a timer at the garbage-collection time (when it differs). */
  static final byte TIMER_AT_GC = 2;

  final long start;
  final long end;
  Object accumulator;
  long elementHold = NO_HOLD;
  long extraHold = NO_HOLD;

  /** Elements added to the window so far, for explaining it. */
  int elementCount;

  /** Whether an element arrived since the last pane. */
  boolean nonEmpty;

  /** In the active set; merging windows leave it when merged away or closed. */
  boolean active = true;

  /** State deleted (garbage-collected or merged away); pending timers for it are ignored. */
  boolean removed;

  long finished;
  long[] slots;
  byte eventTimers;
  long[] processingTimers;
  int processingTimerCount;
  int lastPaneIndex = -1;
  int lastNonSpeculativeIndex = -1;
  Timing lastTiming;

  /** Retracting mode: the value of the last pane, to be withdrawn by the next. */
  Object lastValue;

  /** Dedupes the window within one batch or timer round. */
  int stamp;

  WindowState(long start, long end) {
    this.start = start;
    this.end = end;
  }

  long maxTimestamp() {
    return end - 1;
  }

  boolean sameSpan(long s, long e) {
    return start == s && end == e;
  }

  Window window() {
    return new Window(start, end);
  }

  void clearPaneInfo() {
    lastPaneIndex = -1;
    lastNonSpeculativeIndex = -1;
    lastTiming = null;
  }

  /** Records a pending processing-time timer; false when one at that time is pending already. */
  boolean addProcessingTimer(long time) {
    for (int i = 0; i < processingTimerCount; i++) {
      if (processingTimers[i] == time) {
        return false;
      }
    }
    if (processingTimers == null) {
      processingTimers = new long[2];
    } else if (processingTimerCount == processingTimers.length) {
      processingTimers = Arrays.copyOf(processingTimers, processingTimerCount * 2);
    }
    processingTimers[processingTimerCount++] = time;
    return true;
  }

  /** Consumes a pending processing-time timer; false when none at that time was pending. */
  boolean takeProcessingTimer(long time) {
    for (int i = 0; i < processingTimerCount; i++) {
      if (processingTimers[i] == time) {
        processingTimers[i] = processingTimers[--processingTimerCount];
        return true;
      }
    }
    return false;
  }
}
