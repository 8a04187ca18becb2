package io.eventide.definition.kafka;

/** How a consumer reads a pipeline's pane topic. */
public enum KafkaSinkMode {
  /**
   * An upsert stream keyed by key and window: the topic is compacted and the latest pane of a
   * window (by pane index) is its value. Pairs with accumulating panes.
   */
  CHANGELOG,
  /** Every record is a fact to be added up. Pairs with discarding panes. */
  APPEND
}
