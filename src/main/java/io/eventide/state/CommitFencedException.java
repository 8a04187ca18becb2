package io.eventide.state;

/**
 * The store refused a commit, before writing anything of it, because its owner no longer holds the
 * pipeline: another replica deleted or reset it, or another owner opened it. A 503 like any state
 * store trouble, unless the pipeline turns out to be gone, which the request is then told instead.
 */
public final class CommitFencedException extends StateUnavailableException {
  public CommitFencedException(String pipeline, Throwable cause) {
    super("the commit of pipeline '" + pipeline + "' was fenced: " + cause.getMessage(), cause);
  }

  /** Whether {@code error} or one of its causes is a fenced commit. */
  public static boolean among(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof CommitFencedException) {
        return true;
      }
    }
    return false;
  }
}
