package io.eventide.state.redis;

import io.eventide.state.CommitUnresolvedException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import java.util.Arrays;
import java.util.List;

/**
 * What a failed commit call says about the commit: whether Redis certainly did not run it, or
 * whether it may have run and its reply was lost.
 */
final class CommitFailure {
  /** Lettuce's words when it refuses a command while disconnected: the command was never sent. */
  private static final String REJECTED_WHILE_DISCONNECTED = "Currently not connected";

  private CommitFailure() {}

  /**
   * Whether the commit certainly did not run: Redis answered with an error (the script refuses
   * before it writes: fenced, out of memory), or the client never sent it.
   */
  static boolean neverRan(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof RedisCommandExecutionException) {
        return true;
      }
      if (t instanceof RedisException
          && t.getMessage() != null
          && t.getMessage().startsWith(REJECTED_WHILE_DISCONNECTED)) {
        return true;
      }
    }
    return false;
  }

  /** The error commit.lua replies with when its owner no longer holds the pipeline. */
  private static final String FENCED = "FENCED";

  /** Whether commit.lua refused the commit because its owner was fenced (it wrote nothing). */
  static boolean fenced(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof RedisCommandExecutionException
          && t.getMessage() != null
          && t.getMessage().startsWith(FENCED)) {
        return true;
      }
    }
    return false;
  }

  /** Whether Redis answered with an error, which asking again will not change. */
  static boolean isErrorReply(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof RedisCommandExecutionException) {
        return true;
      }
    }
    return false;
  }

  static CommitUnresolvedException unresolved(String pipeline, long number, Throwable lost) {
    return new CommitUnresolvedException(
        "Redis did not confirm whether commit "
            + number
            + " of pipeline '"
            + pipeline
            + "' was applied: "
            + lost.getMessage(),
        lost);
  }

  /** The pane log ids resolve.lua found recorded for a commit that landed. */
  static List<String> paneIds(List<String> reply, int panes, String pipeline, Throwable lost) {
    String joined = reply.size() > 1 ? reply.get(1) : "";
    List<String> ids = joined.isEmpty() ? List.of() : Arrays.asList(joined.split(" "));
    if (ids.size() != panes) {
      throw new IllegalStateException(
          "commit of pipeline '"
              + pipeline
              + "' landed with "
              + ids.size()
              + " pane log ids recorded for "
              + panes
              + " panes",
          lost);
    }
    return ids;
  }
}
