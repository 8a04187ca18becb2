package io.eventide.core.read;

/**
 * A text that is not JSON at all (a line of an NDJSON body, a Kafka value, a logged record):
 * dead-lettered as invalid, with the text as it came.
 */
public enum UnreadableEvent implements EventReadResult {
  INSTANCE
}
