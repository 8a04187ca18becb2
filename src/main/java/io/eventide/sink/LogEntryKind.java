package io.eventide.sink;

/**
 * What a pane stream item is; each kind is the SSE event name its {@link #wireName()} gives. The
 * pane log holds the first three, progress markers and finals; a snapshot's items are results, not
 * log entries.
 */
public enum LogEntryKind {
  PANE("pane"),
  RETRACTION("retraction"),
  /** A session window absorbed into another: its result no longer stands for a window. */
  MERGE("merge"),
  /** A window's current result as of the snapshot's log position. */
  SNAPSHOT("snapshot"),
  /**
   * How far the pipeline is final. In the pane log, a bare marker of a commit that moved it and
   * logged nothing else, which wakes the streams of every replica; they read the progress itself.
   */
  PROGRESS("progress"),
  /**
   * A window's last pane again, now final: the window closed without a closing pane. Logged for a
   * Kafka sink with {@code finals}, which sends it; pane streams learn the same from progress.
   */
  FINAL("final");

  private final String wireName;

  LogEntryKind(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  /** Whether an entry of this kind is a pane record (a pane or its retraction). */
  public boolean isPane() {
    return this == PANE || this == RETRACTION;
  }

  /** Whether a pane stream sends a log entry of this kind as it is (progress comes on its own). */
  public boolean isStreamed() {
    return this == PANE || this == RETRACTION || this == MERGE;
  }

  /** Whether the Kafka pane sink sends a log entry of this kind as a record. */
  public boolean isSent() {
    return isPane() || this == FINAL;
  }
}
