package io.eventide.sink;

/**
 * What a pane subscription delivers: log entries (and, for a snapshot, the windows' results and the
 * end of the snapshot), and at most one {@link Behind} notice at the end.
 */
public sealed interface PaneStreamItem
    permits PaneEvent, PaneStreamItem.SnapshotEnd, PaneStreamItem.Behind {

  /**
   * Every matching window's result has been sent; what follows are the log's entries after {@code
   * position}.
   */
  record SnapshotEnd(String position, int windows) implements PaneStreamItem {}

  /**
   * The subscriber's position fell out of the log's retention: entries after {@code position} up to
   * {@code resumeFrom} are gone, so the stream ends. Resuming from {@code resumeFrom} reads what
   * the log still holds; a snapshot starts over without a gap.
   */
  record Behind(String position, String resumeFrom) implements PaneStreamItem {}
}
