package io.eventide.core;

import io.eventide.pipeline.Event;
import tools.jackson.databind.JsonNode;

/**
 * A readable event on its way to a shard, with the JSON it came as (for dead letters) and the
 * watermark source it counts for (null: the default source).
 */
public record IncomingEvent(Event event, JsonNode raw, String source) {}
