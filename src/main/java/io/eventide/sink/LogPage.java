package io.eventide.sink;

import java.util.List;

/**
 * One read of a pipeline's pane log.
 *
 * <p>A read after a position whose own entry the log still held may skip the log's bounds (see
 * {@link #held}): that entry proves nothing after it was trimmed, since retention only removes the
 * oldest entries, and whether entries were lost is all such a read needs. A read from {@link
 * #START}, of no entries, or after a position the log no longer holds always carries them.
 *
 * @param entries the entries after the position asked for, oldest first, at most the limit asked
 * @param trimmedThrough the newest entry the log's retention has removed ({@code 0} if none, or if
 *     the bounds were not read): a position before it has lost entries
 * @param end the newest entry's id at the time of the read ({@code 0} for an empty log); if the
 *     bounds were not read, the newest entry the read returned ({@code 0} if none)
 * @param trimmed how many entries the log's retention has removed so far: the number of entries up
 *     to and including {@code trimmedThrough}, so that a reader that counts what it read knows how
 *     many it lost; {@link #UNCOUNTED} if the bounds were not read
 */
public record LogPage(List<PaneEvent> entries, String trimmedThrough, String end, long trimmed) {
  public static final String START = "0";

  /** {@link #trimmed} of a read that did not read the log's bounds. */
  public static final long UNCOUNTED = -1;

  /** A read of a log that holds nothing and never did. */
  public static final LogPage EMPTY = new LogPage(List.of(), START, START, 0);

  /**
   * A read after a position whose entry the log still held, without the log's bounds: nothing after
   * the position was lost.
   */
  public static LogPage held(List<PaneEvent> entries) {
    String newest = entries.isEmpty() ? START : entries.get(entries.size() - 1).id();
    return new LogPage(entries, START, newest, UNCOUNTED);
  }

  /** Whether entries after {@code position} were trimmed before this read could return them. */
  public boolean lostAfter(String position) {
    return PaneEvent.compareIds(trimmedThrough, position) > 0;
  }
}
