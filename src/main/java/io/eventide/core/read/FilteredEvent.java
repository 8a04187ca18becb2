package io.eventide.core.read;

/** An event the pipeline's filter dropped: counted as filtered, neither windowed nor kept. */
public enum FilteredEvent implements EventReadResult {
  INSTANCE
}
