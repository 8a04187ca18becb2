package io.eventide.state;

/**
 * The state store cannot be reached (or this process no longer owns the pipeline's state). Nothing
 * of the request was applied; the client should retry after a while.
 */
public class StateUnavailableException extends RuntimeException {
  public StateUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
