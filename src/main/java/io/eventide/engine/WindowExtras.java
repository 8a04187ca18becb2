package io.eventide.engine;

/**
 * The part of a window's state that only some windows need, kept out of {@link WindowState} so that
 * the others do not pay for it: the trigger's slots (counting and processing-time triggers),
 * pending processing-time timers, the last pane's index and timing (windows that fired before their
 * final pane) and the last value (retracting mode, and accumulating mode after an on-time or late
 * pane, for the next pane's restatement).
 */
final class WindowExtras {
  long[] slots;
  long[] processingTimers;
  int processingTimerCount;
  int lastPaneIndex = -1;
  int lastNonSpeculativeIndex = -1;
  Timing lastTiming;
  Object lastValue;

  /** Whether {@link #lastValue} is kept, null or not. */
  boolean hasLastValue;
}
