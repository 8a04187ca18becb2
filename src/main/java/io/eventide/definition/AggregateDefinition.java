package io.eventide.definition;

import io.eventide.engine.aggregate.AggregateSpec;

/**
 * The aggregate of a pipeline.
 *
 * @param spec what the engine builds the aggregate from
 * @param volume JSON pointer to the traded volume in an event (ohlc only), or null
 */
public record AggregateDefinition(AggregateSpec spec, String volume) {
  public String type() {
    return spec.type();
  }
}
