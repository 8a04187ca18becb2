package io.eventide.sink;

/**
 * What a pane stream item is; each kind is the SSE event name its {@link #wireName()} gives. The
 * pane log holds the first three; a snapshot's items are results, not log entries.
 */
public enum LogEntryKind {
  PANE("pane"),
  RETRACTION("retraction"),
  /** A session window absorbed into another: its result no longer stands for a window. */
  MERGE("merge"),
  /** A window's current result as of the snapshot's log position. */
  SNAPSHOT("snapshot");

  private final String wireName;

  LogEntryKind(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
