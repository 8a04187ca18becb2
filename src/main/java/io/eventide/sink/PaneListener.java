package io.eventide.sink;

import java.util.List;

/**
 * Receives a pipeline's panes once their batch is committed to the state store, in pane log order.
 * Implementations must be thread-safe and must never block: a slow consumer is the consumer's
 * problem, not ingestion's. A commit that logged only session merges, or only moved the pipeline's
 * progress (what has become final), is announced with no pane.
 */
public interface PaneListener {
  void onPanes(String pipeline, List<PublishedPane> panes);
}
