package io.eventide.engine;

/** Why an element did not reach a window. */
public enum DropReason {
  /** The window is beyond its allowed lateness. */
  EXPIRED,
  /** The window's trigger has finished. */
  CLOSED,
  /** The event claims a time too far ahead of the wall clock (live mode only). */
  FUTURE,
  /** The event could not be read (missing key, bad timestamp, non-numeric value). */
  INVALID;

  /** The lower-case name used in every record Eventide writes. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
