package io.eventide.engine;

/** What a pane holds relative to the panes before it. */
public enum AccumulationMode {
  /** A pane holds only what arrived since the previous pane. */
  DISCARDING,
  /** Every pane holds everything the window has seen. */
  ACCUMULATING,
  /**
   * Like accumulating, and each pane after the first is preceded by a retraction of the previous
   * one (an Eventide extension; Beam declared it but never shipped it).
   */
  RETRACTING
}
