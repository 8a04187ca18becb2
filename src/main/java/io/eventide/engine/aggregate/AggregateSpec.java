package io.eventide.engine.aggregate;

import java.util.List;

/**
 * A validated aggregate configuration from a pipeline definition.
 *
 * @param type one of count, sum, min, max, mean, collect, latest, distinctCount, quantiles, ohlc
 * @param fractions the quantile fractions (quantiles only; each in [0, 1])
 * @param sketchSize HLL lgK for distinctCount, KLL k for quantiles; 0 means the default
 */
public record AggregateSpec(String type, List<Double> fractions, int sketchSize) {
  public AggregateSpec {
    fractions = fractions == null ? List.of() : List.copyOf(fractions);
  }

  public static AggregateSpec of(String type) {
    return new AggregateSpec(type, List.of(), 0);
  }
}
