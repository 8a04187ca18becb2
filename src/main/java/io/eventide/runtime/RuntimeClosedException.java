package io.eventide.runtime;

import io.eventide.state.StateUnavailableException;

/**
 * The runtime a request found was reset or deleted before the request could start on it. Nothing
 * was applied; the request is retried on the pipeline as it is now, and only a pipeline reset over
 * and over for the whole of a request's retries lets this reach the client, as a 503.
 */
public final class RuntimeClosedException extends StateUnavailableException {
  RuntimeClosedException(String pipeline) {
    super("pipeline '" + pipeline + "' was reset or deleted while the request started", null);
  }
}
