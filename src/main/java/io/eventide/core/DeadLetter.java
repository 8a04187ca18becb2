package io.eventide.core;

import io.eventide.core.render.PaneRecords;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.DropReason;
import io.eventide.engine.Window;
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
 * @param window the window the event was dropped from (expired, closed, quota), else null
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

  /**
   * The most characters of an event's JSON text a dead letter keeps, wherever it is stored: one
   * unreadable NDJSON line may be as large as a whole body.
   */
  public static final int MAX_EVENT_CHARS = 65_536;

  /** An event that could not be read: a field missing, or of the wrong kind. */
  public static DeadLetter invalid(
      String pipeline, JsonNode event, String path, String detail, long at) {
    return new DeadLetter(pipeline, event, DropReason.INVALID, path, detail, null, at);
  }

  /**
   * A line of an NDJSON body, or a Kafka record, that is not JSON at all.
   *
   * @param detail why, as {@link io.eventide.core.read.EventReader#whyUnreadable} says it
   */
  public static DeadLetter unreadable(String pipeline, String line, String detail, long at) {
    return invalid(pipeline, StringNode.valueOf(line), "", detail, at);
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

  /**
   * An event that would have opened {@code window} while its shard held the {@code limit} windows
   * it may.
   */
  public static DeadLetter overQuota(
      String pipeline, JsonNode event, Window window, int limit, long at) {
    return new DeadLetter(
        pipeline,
        event,
        DropReason.QUOTA,
        null,
        "the window would be one more than the "
            + limit
            + " its shard of the pipeline may hold open (eventide.ingest.max-open-windows)",
        window,
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

  /**
   * The record dashboards read from {@code /dead-letters} and the state store keeps. An event whose
   * JSON text is longer than {@link #MAX_EVENT_CHARS} is kept as the start of that text, a string,
   * with {@code truncated} and the whole text's {@code eventLength}.
   */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    String text = event.isString() ? event.stringValue() : event.toString();
    if (text.length() > MAX_EVENT_CHARS) {
      // A cut between the halves of a surrogate pair would leave a lone one, which no sink takes.
      int cut =
          Character.isHighSurrogate(text.charAt(MAX_EVENT_CHARS - 1))
              ? MAX_EVENT_CHARS - 1
              : MAX_EVENT_CHARS;
      n.put("event", text.substring(0, cut));
      n.put("truncated", true);
      n.put("eventLength", text.length());
    } else {
      n.set("event", event);
    }
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
