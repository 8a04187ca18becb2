package io.eventide.engine;

/** Where a pane stands relative to the watermark passing the end of its window. */
public enum Timing {
  EARLY,
  ON_TIME,
  LATE
}
