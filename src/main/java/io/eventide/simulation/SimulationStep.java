package io.eventide.simulation;

import java.util.List;
import tools.jackson.databind.JsonNode;

/** One step of a simulation: a batch of events, a watermark move or a processing-time move. */
public sealed interface SimulationStep {

  /** One engine batch; the events are kept as sent so that drops can show them. */
  record Events(List<JsonNode> events) implements SimulationStep {
    public Events {
      events = List.copyOf(events);
    }
  }

  /** Advances the input watermark; a value behind the current one changes nothing. */
  record Watermark(long watermark) implements SimulationStep {}

  /** Moves processing time to {@code time}, firing the timers strictly before it. */
  record ProcessingTime(long time) implements SimulationStep {}
}
