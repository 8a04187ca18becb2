package io.eventide.core;

import io.eventide.engine.DropReason;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One event of a post that was not applied, as the post's answer names it: the producer learns
 * which event and why without reading the dead letters.
 *
 * @param index the event's position in the post (for NDJSON, among its non-blank lines)
 * @param path the JSON pointer of the field to blame (invalid, future), else null
 * @param reason why it was refused
 * @param detail a human-readable explanation, the dead letter's
 */
public record Rejection(int index, String path, DropReason reason, String detail) {

  /** The rejection of event {@code index}, saying what its dead letter says. */
  public static Rejection of(int index, DeadLetter letter) {
    return new Rejection(index, letter.path(), letter.reason(), letter.detail());
  }

  public Rejection at(int position) {
    return new Rejection(position, path, reason, detail);
  }

  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("index", index);
    if (path != null) {
      n.put("path", path);
    }
    n.put("reason", reason.wireName());
    n.put("detail", detail);
    return n;
  }
}
