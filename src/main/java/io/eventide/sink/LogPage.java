package io.eventide.sink;

import java.util.List;

/**
 * One read of a pipeline's pane log.
 *
 * @param entries the entries after the position asked for, oldest first, at most the limit asked
 * @param trimmedThrough the newest entry the log's retention has removed ({@code 0} if none): a
 *     position before it has lost entries
 * @param end the newest entry's id at the time of the read ({@code 0} for an empty log)
 * @param trimmed how many entries the log's retention has removed so far: the number of entries up
 *     to and including {@code trimmedThrough}, so that a reader that counts what it read knows how
 *     many it lost
 */
public record LogPage(List<PaneEvent> entries, String trimmedThrough, String end, long trimmed) {
  public static final String START = "0";

  /** A read of a log that holds nothing and never did. */
  public static final LogPage EMPTY = new LogPage(List.of(), START, START, 0);

  /** Whether entries after {@code position} were trimmed before this read could return them. */
  public boolean lostAfter(String position) {
    return PaneEvent.compareIds(trimmedThrough, position) > 0;
  }
}
