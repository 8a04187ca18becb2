package io.eventide.core;

/** Where a pipeline's input watermark comes from. */
public enum WatermarkMode {
  /**
   * The live rule: derived from the sources' event times and explicit posts (see {@link
   * WatermarkTracker}), with events too far ahead of the wall clock refused.
   */
  FROM_SOURCES,
  /**
   * Only explicit watermarks move it and events are not checked against the clock: a {@code
   * /simulate} run that scripts the watermark itself.
   */
  EXPLICIT
}
