package io.eventide.runtime;

/**
 * Told what the runtime did, for metrics. Called on request and shard threads; implementations must
 * be cheap and thread-safe.
 */
public interface RuntimeObserver {
  /** A batch was applied: what became of its events, and how long it took. */
  void batchApplied(String pipeline, IngestResult result, long nanos);
}
