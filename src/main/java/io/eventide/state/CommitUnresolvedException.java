package io.eventide.state;

/**
 * A commit's reply was lost and the store could not find out in time whether it was applied: the
 * request may have been applied in whole or not at all. Events sent with ids can be resent safely;
 * events without ids may be counted twice if resent.
 */
public class CommitUnresolvedException extends RuntimeException {
  public CommitUnresolvedException(String message, Throwable cause) {
    super(message, cause);
  }
}
