package io.eventide.pipeline;

/** Where the parts of an event sit in its JSON, as JSON pointers (RFC 6901). */
public record EventPointers(String key, String timestamp, String value, String id, String source) {
  public static final EventPointers DEFAULT =
      new EventPointers("/key", "/timestamp", "/value", "/id", "/source");
}
