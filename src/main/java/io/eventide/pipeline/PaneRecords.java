package io.eventide.pipeline;

import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Window;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON record of a pane, the one shape every consumer sees, whatever carries it (HTTP, SSE,
 * Kafka, Redis). Panes are many, so their records are written token by token, never as a tree;
 * {@link PaneRecordWriter} turns them into text.
 */
public final class PaneRecords {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private PaneRecords() {}

  /**
   * Writes a pane's record as one root value.
   *
   * @param keys how the pane's key is shown: a string, or an object for a composite key
   * @param times the writer's texts of times
   */
  static void write(
      JsonGenerator json, String pipeline, KeyFields keys, TimestampTexts times, Pane pane) {
    json.writeStartObject();
    json.writeStringProperty("pipeline", pipeline);
    json.writeName("key");
    keys.write(json, pane.key());
    json.writeName("window");
    writeWindow(json, times, pane.window());
    json.writeName("value");
    PlainValues.write(json, pane.value());
    if (pane.partial() != null) {
      json.writeName("partial");
      PlainValues.write(json, pane.partial());
    }
    json.writeStringProperty("timestamp", times.of(pane.timestamp()));
    json.writeName("pane");
    writeInfo(json, pane.info());
    json.writeBooleanProperty("retraction", pane.retraction());
    if (pane.retraction()) {
      json.writeNumberProperty("retracts", pane.retracts());
    }
    json.writeBooleanProperty("final", pane.isFinal());
    json.writeStringProperty("finalAt", times.of(pane.finalAt()));
    json.writeStringProperty("emittedAt", times.of(pane.emittedAt()));
    json.writeStringProperty("watermark", times.watermark(pane.watermark()));
    json.writeEndObject();
  }

  /**
   * The record of a session window absorbed into another of its key: the window named is no longer
   * a window of its own, and its result no longer stands.
   */
  public static ObjectNode merge(String pipeline, String key, Window window) {
    ObjectNode json = JSON.objectNode();
    json.put("pipeline", pipeline);
    json.put("key", key);
    json.set("window", window(window));
    json.put("merged", true);
    return json;
  }

  /** {@code {"start": ISO, "end": ISO}}, or {@code {"global": true}} for the global window. */
  public static ObjectNode window(Window window) {
    if (window.isGlobal()) {
      return JSON.objectNode().put("global", true);
    }
    return JSON.objectNode()
        .put("start", Timestamps.format(window.start()))
        .put("end", Timestamps.format(window.end()));
  }

  /** {@link #window} for a pane record. */
  private static void writeWindow(JsonGenerator json, TimestampTexts times, Window window) {
    json.writeStartObject();
    if (window.isGlobal()) {
      json.writeBooleanProperty("global", true);
    } else {
      json.writeStringProperty("start", times.of(window.start()));
      json.writeStringProperty("end", times.of(window.end()));
    }
    json.writeEndObject();
  }

  private static void writeInfo(JsonGenerator json, PaneInfo info) {
    json.writeStartObject();
    json.writeNumberProperty("index", info.index());
    json.writeNumberProperty("nonSpeculativeIndex", info.nonSpeculativeIndex());
    json.writeStringProperty("timing", info.timing().name());
    json.writeBooleanProperty("first", info.first());
    json.writeBooleanProperty("last", info.last());
    json.writeEndObject();
  }
}
