package io.eventide.api;

import io.eventide.core.WatermarkTracker;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Time;
import io.eventide.runtime.WatermarkView;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Renders a pipeline's watermarks. */
final class WatermarkJson {
  private WatermarkJson() {}

  static ObjectNode toJson(WatermarkView view) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("input", Timestamps.formatWatermark(view.input()));
    out.put("output", Timestamps.formatWatermark(view.output()));
    out.put("wallClock", Timestamps.format(view.wallClock()));
    if (view.input() > Time.MIN && view.input() < Time.MAX) {
      out.put("lagMillis", view.lagMillis());
    } else {
      out.putNull("lagMillis");
    }
    ArrayNode sources = out.putArray("sources");
    for (WatermarkTracker.SourceView s : view.sources()) {
      ObjectNode n = sources.addObject();
      n.put("source", s.source());
      n.put("watermark", Timestamps.formatWatermark(s.watermark()));
      n.put("idle", s.idle());
      n.put("lastSeen", Timestamps.format(s.lastSeen()));
    }
    return out;
  }
}
