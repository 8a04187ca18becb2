package io.eventide.state;

/**
 * The state store lost the data this process had seen in it (a Redis restarted without persistence,
 * flushed, or failed over to an empty replica). Nothing of the request was applied, and nothing
 * will be until an operator restarts the process.
 */
public class StoreLostException extends StateUnavailableException {
  public StoreLostException(String message) {
    super(message, null);
  }
}
