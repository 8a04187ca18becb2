package io.eventide.runtime;

import io.eventide.pipeline.Event;
import tools.jackson.databind.JsonNode;

/** A readable event on its way to a shard, with the JSON it came as (for dead letters). */
record IncomingEvent(Event event, JsonNode raw) {}
