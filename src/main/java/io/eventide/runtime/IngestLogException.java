package io.eventide.runtime;

/**
 * The ingest log (cluster mode) did not take all of a request: either nothing of it was logged, or
 * some of it may have been (each partition acknowledges its records on its own).
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

  /** Some of the request's events may have been logged, and will be applied. */
  public static IngestLogException unresolved(Throwable cause) {
    return new IngestLogException(
        "the ingest log did not confirm all of the request: " + cause, cause, false);
  }

  /** Whether nothing was logged (true), or some of it may have been (false). */
  public boolean outcomeKnown() {
    return outcomeKnown;
  }
}
