package io.eventide.ops;

import io.eventide.engine.Time;

/**
 * One pipeline at a glance, as this replica sees it.
 *
 * @param inputWatermark the input watermark ({@link Time#MIN} before any input)
 * @param lagSeconds wall clock minus input watermark, never negative; NaN before any input
 * @param eventsPerSecond events accepted per second over the last second or so
 * @param openWindows open windows as of the last beat; 0 while not running here
 */
public record PipelineStatus(
    String name,
    State state,
    long inputWatermark,
    double lagSeconds,
    double eventsPerSecond,
    long ingested,
    long late,
    long dropped,
    long panes,
    int openWindows,
    int subscribers) {

  /** Whether the pipeline runs on this replica. */
  public enum State {
    /** Its runtime is up here. */
    RUNNING,
    /** A commit failed; the runtime is rebuilt from the store at its next request or beat. */
    FAILED,
    /** Defined, but not used on this replica since it started (or since a reset). */
    NOT_STARTED
  }
}
