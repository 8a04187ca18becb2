package io.eventide.core;

import io.eventide.core.read.Event;
import io.eventide.core.read.EventTexts;
import tools.jackson.databind.JsonNode;

/**
 * A readable event on its way to a shard, with the text it came as (text {@code index} of {@code
 * texts}: for dead letters and the cluster's ingest log) and the watermark source it counts for
 * (null: the default source).
 */
public record IncomingEvent(Event event, EventTexts texts, int index, String source) {
  /** The event as it was sent, as a tree: only for the rare event that becomes a dead letter. */
  public JsonNode raw() {
    return texts.tree(index);
  }

  /** The event's text as it was sent, bytes of its own. */
  public byte[] bytes() {
    return texts.bytes(index);
  }
}
