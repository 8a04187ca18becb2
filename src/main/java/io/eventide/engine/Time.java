package io.eventide.engine;

/**
 * Event-time constants shared by every part of the engine. Timestamps are epoch milliseconds; the
 * bounds are Beam's, so that a window at the edge of time behaves as it does there.
 */
public final class Time {
  /** The beginning of time: the input watermark before anything moved it. */
  public static final long MIN = -9_223_372_036_854_775L;

  /** The end of time: a watermark at this value has passed every window. */
  public static final long MAX = 9_223_372_036_854_775L;

  /** The global window's maximum timestamp: the end of time minus one day, as in Beam. */
  public static final long GLOBAL_MAX_TIMESTAMP = MAX - 86_400_000L;

  private Time() {}
}
