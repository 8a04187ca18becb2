package io.eventide.api;

import io.eventide.definition.json.Timestamps;
import io.eventide.sink.PaneEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stored result as of the pipeline's progress: a pane rendered {@code "final": false} whose
 * window has since been collected (its {@code finalAt} at or before the progress) is final, though
 * no pane said so when the window closed without a closing pane.
 */
final class Finality {
  private static final String FINAL = "final";
  private static final String FINAL_AT = "finalAt";

  private Finality() {}

  /** The record, marked final if the progress has passed its window; the same node otherwise. */
  static JsonNode asOf(JsonNode record, long finalThrough) {
    if (!(record instanceof ObjectNode object) || !passed(object, finalThrough)) {
      return record;
    }
    return object.deepCopy().put(FINAL, true);
  }

  /** A snapshot's item, marked final if the progress has passed its window. */
  static PaneEvent asOf(PaneEvent item, long finalThrough) {
    if (item.last()) {
      return item;
    }
    JsonNode record = JsonMapper.shared().readTree(item.json());
    JsonNode marked = asOf(record, finalThrough);
    if (marked == record) {
      return item;
    }
    return new PaneEvent(
        item.id(), item.kind(), item.key(), item.timing(), true, marked.toString());
  }

  private static boolean passed(ObjectNode record, long finalThrough) {
    JsonNode finalAt = record.get(FINAL_AT);
    JsonNode isFinal = record.get(FINAL);
    return finalAt != null
        && isFinal != null
        && !isFinal.asBoolean()
        && Timestamps.parseRendered(finalAt.asString()) <= finalThrough;
  }
}
