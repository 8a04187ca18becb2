package io.eventide.engine;

import java.util.Locale;

/** Why an element did not reach a window. */
public enum DropReason {
  /** The window is beyond its allowed lateness. */
  EXPIRED,
  /** The window's trigger has finished. */
  CLOSED,
  /** The event claims a time too far ahead of the wall clock (live mode only). */
  FUTURE,
  /** The event could not be read (missing key, bad timestamp, non-numeric value). */
  INVALID,
  /** The event would open a window beyond the pipeline's limit on open windows. */
  QUOTA;

  /** The lower-case name used in every record Eventide writes. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
