package io.eventide.api;

import io.eventide.core.IngestResult;

/**
 * A streamed (NDJSON) request that failed after some of its batches were applied: the answer must
 * say what was, so that the producer resends only the rest.
 */
final class PartlyAppliedException extends RuntimeException {
  private final transient IngestResult applied;

  PartlyAppliedException(IngestResult applied, Throwable cause) {
    super(cause.getMessage(), cause, false, false);
    this.applied = applied;
  }

  IngestResult applied() {
    return applied;
  }
}
