package io.eventide.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

/**
 * What a pane subscription delivers: runs of log entries (and, for a snapshot, the windows' results
 * and the end of the snapshot), and at most one {@link Behind} notice at the end.
 */
public sealed interface PaneStreamItem
    permits PaneStreamItem.Entries, PaneStreamItem.SnapshotEnd, PaneStreamItem.Behind {

  /**
   * Entries in log order, taken together from what the subscriber has at hand: delivered as one
   * item, so that a burst costs the stream a write per run, not one per pane.
   */
  record Entries(List<PaneEvent> events) implements PaneStreamItem {
    /**
     * The characters of records at which a run is full. Reactor Netty's writer takes up to 128
     * items ahead of what the socket has sent, and a pane stream's merge with its heartbeats 32
     * more, so a client that stops reading holds about 160 items in this process: 160 runs of 8 K
     * characters (and each one's last record), a little over a megabyte, as it held 160 panes of 8
     * KB when each pane was an item.
     */
    static final int MAX_CHARS = 8 * 1024;

    /**
     * The next run of {@code entries}, taken from it: entries until their records reach {@link
     * #MAX_CHARS} characters or none is left, so at least one and past the bound by at most the
     * last.
     */
    public static Entries next(Queue<PaneEvent> entries) {
      List<PaneEvent> run = new ArrayList<>();
      int chars = 0;
      do {
        PaneEvent e = entries.poll();
        run.add(e);
        chars += e.json().length();
      } while (chars < MAX_CHARS && !entries.isEmpty());
      return new Entries(run);
    }
  }

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
