package io.eventide.core.render;

import io.eventide.definition.KeyFields;
import io.eventide.definition.json.PlainValues;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The pane record as it was built before it was written token by token: a tree, printed by {@code
 * toString()}. The reference that {@link PaneRecordWriter}'s text must match byte for byte.
 */
final class TreePaneRecords {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private TreePaneRecords() {}

  static String render(String pipeline, KeyFields keys, Pane pane) {
    ObjectNode json = JSON.objectNode();
    json.put("pipeline", pipeline);
    json.set("key", keys.render(pane.key()));
    json.set("window", PaneRecords.window(pane.window()));
    json.set("value", PlainValues.toJson(pane.value()));
    if (pane.partial() != null) {
      json.set("partial", PlainValues.toJson(pane.partial()));
    }
    json.put("timestamp", Timestamps.format(pane.timestamp()));
    json.set("pane", info(pane.info()));
    if (pane.restates() != null) {
      ObjectNode restates = json.putObject("restates").put("index", pane.restates().index());
      if (pane.restates().hasValue()) {
        restates.set("value", PlainValues.toJson(pane.restates().value()));
      }
    }
    json.put("retraction", pane.retraction());
    if (pane.retraction()) {
      json.put("retracts", pane.retracts());
    }
    json.put("final", pane.isFinal());
    json.put("finalAt", Timestamps.format(pane.finalAt()));
    json.put("emittedAt", Timestamps.format(pane.emittedAt()));
    json.put("watermark", Timestamps.formatWatermark(pane.watermark()));
    return json.toString();
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
