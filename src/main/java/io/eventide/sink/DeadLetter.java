package io.eventide.sink;

import io.eventide.engine.Window;
import io.eventide.pipeline.PaneRecords;
import io.eventide.pipeline.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An event that was not applied, with why.
 *
 * @param event the event as it was sent
 * @param reason expired, closed, future, invalid
 * @param path the JSON pointer of the offending field (invalid only), else null
 * @param detail a human-readable explanation
 * @param window the window the event was dropped from (expired, closed), else null
 * @param at the wall-clock time of the drop
 */
public record DeadLetter(
    String pipeline,
    JsonNode event,
    String reason,
    String path,
    String detail,
    Window window,
    long at) {

  /** The record dashboards read from {@code /dead-letters} and the state store keeps. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.set("event", event);
    n.put("reason", reason);
    if (path != null) {
      n.put("path", path);
    }
    n.put("detail", detail);
    if (window != null) {
      n.set("window", PaneRecords.window(window));
    }
    n.put("at", Timestamps.format(at));
    return n;
  }
}
