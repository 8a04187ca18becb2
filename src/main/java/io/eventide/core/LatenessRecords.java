package io.eventide.core;

import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored form of a {@link LatenessAdvisor}: {@code {"sources": {name: [onTime, sketch]},
 * "others": [onTime, sketch]}}, each sketch the Base64 of KLL's serialized form ({@code ""} before
 * any late event), {@code others} only once sources beyond the cap were seen.
 */
final class LatenessRecords {
  private LatenessRecords() {}

  /** A stored advisor's records: by source, and of the sources beyond the cap (or null). */
  record Decoded(Map<String, LatenessRecord> sources, LatenessRecord others) {}

  static String encode(Map<String, LatenessRecord> sources, LatenessRecord others) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    ObjectNode bySource = out.putObject("sources");
    sources.forEach((name, r) -> write(bySource.putArray(name), r));
    if (others != null) {
      write(out.putArray("others"), others);
    }
    return out.toString();
  }

  static Decoded decode(String stored) {
    JsonNode json = JsonMapper.shared().readTree(stored);
    Map<String, LatenessRecord> sources = new HashMap<>();
    json.get("sources").properties().forEach(e -> sources.put(e.getKey(), read(e.getValue())));
    JsonNode others = json.get("others");
    return new Decoded(sources, others == null ? null : read(others));
  }

  private static void write(ArrayNode out, LatenessRecord r) {
    out.add(r.onTime);
    out.add(r.late == null ? "" : Base64.getEncoder().encodeToString(r.late.toByteArray()));
  }

  private static LatenessRecord read(JsonNode pair) {
    String sketch = pair.get(1).asString();
    return new LatenessRecord(
        pair.get(0).asLong(),
        sketch.isEmpty()
            ? null
            : KllDoublesSketch.heapify(Memory.wrap(Base64.getDecoder().decode(sketch))));
  }
}
