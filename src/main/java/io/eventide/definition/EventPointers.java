package io.eventide.definition;

import java.util.List;

/**
 * Where the parts of an event sit in its JSON, as JSON pointers (RFC 6901).
 *
 * @param key one pointer for a plain key, or several for a composite key ({@link KeyFields})
 */
public record EventPointers(
    List<String> key, String timestamp, String value, String id, String source) {
  public static final EventPointers DEFAULT =
      new EventPointers(List.of("/key"), "/timestamp", "/value", "/id", "/source");

  public EventPointers {
    key = List.copyOf(key);
  }

  /** The key's fields: how a key is read from events and written in pane records. */
  public KeyFields keyFields() {
    return new KeyFields(key);
  }
}
