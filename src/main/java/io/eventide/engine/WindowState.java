package io.eventide.engine;

import io.eventide.engine.aggregate.AccumulatorCell;
import java.util.Arrays;

/**
 * Everything the engine keeps for one window of one key: the accumulator, the watermark holds, the
 * trigger's finished bits, which timers are pending and, in {@link WindowExtras}, what only some
 * windows need. Fields are plain and package-private because this is the hot path's data; only the
 * engine writes them, the holds through {@link WatermarkHold} and the trigger state through the
 * trigger nodes.
 *
 * <p>A window is an {@link AccumulatorCell}: an aggregate that fits one (sum, count) keeps its
 * accumulator in the window's own fields, and {@link #accumulator} is then the window itself. With
 * that and the rarer state moved out, a window of a sum under the default trigger is 88 bytes and
 * no other object.
 */
final class WindowState extends AccumulatorCell {
  static final long NO_HOLD = Long.MAX_VALUE;

  /** Bit of {@link #eventTimers}: a timer at the window's max timestamp. */
  static final byte TIMER_AT_END = 1;

  /** Bit of {@link #eventTimers}: a timer at the garbage-collection time (when it differs). */
  static final byte TIMER_AT_GC = 2;

  /** Bit of {@link #flags}: state deleted (garbage-collected or merged away). */
  private static final byte REMOVED = 1;

  /** Bit of {@link #flags}: listed in the engine's current batch or timer round. */
  private static final byte LISTED = 2;

  final long start;
  final long end;
  long elementHold = NO_HOLD;
  long extraHold = NO_HOLD;
  long finished;

  /** The aggregate's accumulator, the window itself for an inline one; null once finished. */
  Object accumulator;

  /** The key's next window. */
  WindowState next;

  private WindowExtras extras;

  /** Elements added to the window so far, for explaining it. */
  int elementCount;

  /** Whether an element arrived since the last pane. */
  boolean nonEmpty;

  /** In the active set; merging windows leave it when merged away or closed. */
  boolean active = true;

  byte eventTimers;
  private byte flags;

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

  /** Pending timers for a removed window are ignored. */
  boolean isRemoved() {
    return (flags & REMOVED) != 0;
  }

  void markRemoved() {
    flags |= REMOVED;
  }

  /** Lists the window once per batch or timer round: true the first time, until {@link #unlist}. */
  boolean list() {
    if ((flags & LISTED) != 0) {
      return false;
    }
    flags |= LISTED;
    return true;
  }

  void unlist() {
    flags &= ~LISTED;
  }

  private WindowExtras extras() {
    if (extras == null) {
      extras = new WindowExtras();
    }
    return extras;
  }

  /** The trigger's counters and target times, for triggers that keep any. */
  long[] slots() {
    return extras.slots;
  }

  void slots(long[] slots) {
    if (slots != null) {
      extras().slots = slots;
    }
  }

  /** The index of the last pane emitted, -1 before the first. */
  int lastPaneIndex() {
    return extras == null ? -1 : extras.lastPaneIndex;
  }

  int lastNonSpeculativeIndex() {
    return extras == null ? -1 : extras.lastNonSpeculativeIndex;
  }

  /** The timing of the last pane, null before the first. */
  Timing lastTiming() {
    return extras == null ? null : extras.lastTiming;
  }

  void lastPane(int index, int nonSpeculativeIndex, Timing timing) {
    if (extras == null && index < 0 && nonSpeculativeIndex < 0 && timing == null) {
      return;
    }
    WindowExtras e = extras();
    e.lastPaneIndex = index;
    e.lastNonSpeculativeIndex = nonSpeculativeIndex;
    e.lastTiming = timing;
  }

  void clearPaneInfo() {
    lastPane(-1, -1, null);
  }

  /**
   * The value of the last pane: in retracting mode, to be withdrawn by the next (null: nothing to
   * withdraw); in accumulating mode after an on-time or late pane, to be restated by the next.
   */
  Object lastValue() {
    return extras == null ? null : extras.lastValue;
  }

  /** Whether the last pane's value is kept: set by {@link #keepLastValue}, even when it is null. */
  boolean hasLastValue() {
    return extras != null && extras.hasLastValue;
  }

  /** Retracting mode: keeps the pane's value to withdraw; null keeps nothing. */
  void lastValue(Object value) {
    if (value != null || extras != null) {
      WindowExtras e = extras();
      e.lastValue = value;
      e.hasLastValue = value != null;
    }
  }

  /** Keeps the value of the pane just emitted, null included, for the next pane to restate. */
  void keepLastValue(Object value) {
    WindowExtras e = extras();
    e.lastValue = value;
    e.hasLastValue = true;
  }

  int processingTimerCount() {
    return extras == null ? 0 : extras.processingTimerCount;
  }

  long processingTimer(int i) {
    return extras.processingTimers[i];
  }

  /** Records a pending processing-time timer; false when one at that time is pending already. */
  boolean addProcessingTimer(long time) {
    WindowExtras e = extras();
    for (int i = 0; i < e.processingTimerCount; i++) {
      if (e.processingTimers[i] == time) {
        return false;
      }
    }
    if (e.processingTimers == null) {
      e.processingTimers = new long[2];
    } else if (e.processingTimerCount == e.processingTimers.length) {
      e.processingTimers = Arrays.copyOf(e.processingTimers, e.processingTimerCount * 2);
    }
    e.processingTimers[e.processingTimerCount++] = time;
    return true;
  }

  /** Consumes a pending processing-time timer; false when none at that time was pending. */
  boolean takeProcessingTimer(long time) {
    for (int i = 0; i < processingTimerCount(); i++) {
      if (extras.processingTimers[i] == time) {
        extras.processingTimers[i] = extras.processingTimers[--extras.processingTimerCount];
        return true;
      }
    }
    return false;
  }

  void clearProcessingTimers() {
    if (extras != null) {
      extras.processingTimerCount = 0;
    }
  }
}
