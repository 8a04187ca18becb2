package io.eventide.runtime;

import io.eventide.core.IngestResult;

/**
 * Told what the runtime did, for metrics. Called on request and shard threads; implementations must
 * be cheap and thread-safe.
 */
public interface RuntimeObserver {
  /** A batch was applied: what became of its events, and how long it took. */
  void batchApplied(String pipeline, IngestResult result, long nanos);

  /** A step was committed to the state store, taking {@code nanos} for the store's write alone. */
  default void committed(String pipeline, long nanos) {}

  /** A commit failed: the store could not be reached, or the pipeline's owner was fenced. */
  default void commitFailed(String pipeline) {}
}
