package io.eventide.sink;

import io.eventide.engine.Pane;
import java.util.List;

/**
 * Receives the panes a shard emitted, in emission order, on the shard's thread. Implementations
 * must be thread-safe (shards of one pipeline run in parallel) and must never block: a slow
 * consumer is the consumer's problem, not ingestion's.
 */
public interface PaneListener {
  void onPanes(String pipeline, List<Pane> panes);
}
