package io.eventide.engine;

/** How the output timestamp of a pane is chosen from its elements. */
public enum TimestampCombiner {
  END_OF_WINDOW,
  EARLIEST,
  LATEST
}
