package io.eventide.core;

import io.eventide.engine.DropReason;
import io.eventide.engine.Window;
import io.eventide.pipeline.PaneRecords;
import io.eventide.pipeline.Timestamps;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * An event that was not applied, with why. Built only through the factories below, so that each
 * reason always says the same thing wherever it is reported.
 *
 * @param event the event as it was sent
 * @param path the JSON pointer of the offending field (invalid, future), else null
 * @param detail a human-readable explanation
 * @param window the window the event was dropped from (expired, closed), else null
 * @param at the wall-clock time of the drop
 */
public record DeadLetter(
    String pipeline,
    JsonNode event,
    DropReason reason,
    String path,
    String detail,
    Window window,
    long at) {

  /** An event that could not be read: a field missing, or of the wrong kind. */
  public static DeadLetter invalid(
      String pipeline, JsonNode event, String path, String detail, long at) {
    return new DeadLetter(pipeline, event, DropReason.INVALID, path, detail, null, at);
  }

  /** A line of an NDJSON body, or a Kafka record, that is not JSON at all. */
  public static DeadLetter unreadable(String pipeline, String line, long at) {
    return invalid(pipeline, StringNode.valueOf(line), "", "the line is not JSON", at);
  }

  /** An event whose time is further ahead of the wall clock than the pipeline allows. */
  public static DeadLetter future(
      String pipeline, JsonNode event, String timestampPath, Duration maxFutureSkew, long at) {
    return new DeadLetter(
        pipeline,
        event,
        DropReason.FUTURE,
        timestampPath,
        "more than " + maxFutureSkew + " ahead of the wall clock",
        null,
        at);
  }

  /** An event the engine dropped from {@code window}: expired or closed. */
  public static DeadLetter dropped(
      String pipeline, JsonNode event, DropReason reason, Window window, long at) {
    String detail =
        reason == DropReason.EXPIRED
            ? "the window is beyond its allowed lateness"
            : "the window's trigger has finished";
    return new DeadLetter(pipeline, event, reason, null, detail, window, at);
  }

  /** The record dashboards read from {@code /dead-letters} and the state store keeps. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.set("event", event);
    n.put("reason", reason.wireName());
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
