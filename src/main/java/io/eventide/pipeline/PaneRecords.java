package io.eventide.pipeline;

import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Window;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON record of a pane, the one shape every consumer sees, whatever carries it (HTTP, SSE,
 * Kafka, Redis).
 */
public final class PaneRecords {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private PaneRecords() {}

  /**
   * @param keys how the pane's key is shown: a string, or an object for a composite key
   */
  public static ObjectNode toJson(String pipeline, KeyFields keys, Pane pane) {
    ObjectNode json = JSON.objectNode();
    json.put("pipeline", pipeline);
    json.set("key", keys.render(pane.key()));
    json.set("window", window(pane.window()));
    json.set("value", PlainValues.toJson(pane.value()));
    if (pane.partial() != null) {
      json.set("partial", PlainValues.toJson(pane.partial()));
    }
    json.put("timestamp", Timestamps.format(pane.timestamp()));
    json.set("pane", info(pane.info()));
    json.put("retraction", pane.retraction());
    if (pane.retraction()) {
      json.put("retracts", pane.retracts());
    }
    json.put("final", pane.isFinal());
    json.put("finalAt", Timestamps.format(pane.finalAt()));
    json.put("emittedAt", Timestamps.format(pane.emittedAt()));
    json.put("watermark", Timestamps.formatWatermark(pane.watermark()));
    return json;
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

  private static ObjectNode info(PaneInfo info) {
    return JSON.objectNode()
        .put("index", info.index())
        .put("nonSpeculativeIndex", info.nonSpeculativeIndex())
        .put("timing", info.timing().name())
        .put("first", info.first())
        .put("last", info.last());
  }
}
