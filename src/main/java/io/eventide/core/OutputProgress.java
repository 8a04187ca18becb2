package io.eventide.core;

import io.eventide.engine.Time;

/**
 * How far a pipeline's output has got, as its progress events tell consumers: the output watermark
 * (the input watermark held back by the windows' holds: no pane on time or early comes with a
 * timestamp before it) and the time through which windows are final (every window whose {@code
 * finalAt} is at or before it has been collected and never changes again: the input watermark,
 * which collects them). The output watermark is never ahead of the final time.
 */
public record OutputProgress(long watermark, long finalThrough) {
  /** Before any commit. */
  public static final OutputProgress NONE = new OutputProgress(Time.MIN, Time.MIN);

  /** The further of each: progress that never goes back. */
  public OutputProgress max(OutputProgress other) {
    return new OutputProgress(
        Math.max(watermark, other.watermark), Math.max(finalThrough, other.finalThrough));
  }

  /** How far both have got: what several partitions of one pipeline have got to together. */
  public OutputProgress min(OutputProgress other) {
    return new OutputProgress(
        Math.min(watermark, other.watermark), Math.min(finalThrough, other.finalThrough));
  }
}
