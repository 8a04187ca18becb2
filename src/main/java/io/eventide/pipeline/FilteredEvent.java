package io.eventide.pipeline;

/** An event the pipeline's filter dropped: counted as filtered, neither windowed nor kept. */
public enum FilteredEvent implements EventReadResult {
  INSTANCE
}
