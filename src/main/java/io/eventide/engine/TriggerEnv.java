package io.eventide.engine;

/** What a trigger node may see and do besides its window's state: the clocks and the timers. */
interface TriggerEnv {
  /** The input watermark: the event-time clock triggers compare windows against. */
  long inputWatermark();

  long processingTime();

  /** Whether windows merge, in which case composite triggers run all children in parallel. */
  boolean isMerging();

  void setEventTimer(WindowState window, long time);

  void setProcessingTimer(WindowState window, long time);
}
