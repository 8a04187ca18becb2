package io.eventide.definition;

/**
 * What a live pipeline does with an event stamped further ahead of the wall clock than its {@code
 * maxFutureSkew}, the two ways Beam names to keep such an event from moving the watermark.
 */
public enum FutureSkewAction {
  /** The event is dead-lettered {@code future}. */
  REJECT,
  /** The event is applied as if stamped when it arrived, and counted {@code clamped}. */
  CLAMP
}
