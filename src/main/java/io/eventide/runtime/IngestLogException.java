package io.eventide.runtime;

/**
 * The ingest log (cluster mode) did not take a request: either nothing of it was logged, or the log
 * did not confirm in time whether all of it was (a request is logged whole or not at all).
 */
public final class IngestLogException extends RuntimeException {
  private final boolean outcomeKnown;

  private IngestLogException(String message, Throwable cause, boolean outcomeKnown) {
    super(message, cause);
    this.outcomeKnown = outcomeKnown;
  }

  /** Nothing of the request was logged: it can simply be sent again. */
  public static IngestLogException notLogged(Throwable cause) {
    return new IngestLogException("the ingest log took nothing: " + cause, cause, true);
  }

  /** The request was logged whole or not at all, and the log did not say which in time. */
  public static IngestLogException unresolved(Throwable cause) {
    return new IngestLogException(
        "the ingest log did not confirm whether it took the request: " + cause, cause, false);
  }

  /** Whether nothing was logged (true), or it is unknown whether everything was (false). */
  public boolean outcomeKnown() {
    return outcomeKnown;
  }
}
