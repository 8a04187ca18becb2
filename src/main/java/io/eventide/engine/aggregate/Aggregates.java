package io.eventide.engine.aggregate;

import java.util.List;

/** Builds {@link Aggregate}s from their {@link AggregateSpec}. */
public final class Aggregates {

  /** Every aggregate type name. */
  public static final List<String> TYPES =
      List.of(
          "count",
          "sum",
          "min",
          "max",
          "mean",
          "collect",
          "latest",
          "distinctCount",
          "quantiles",
          "ohlc");

  private Aggregates() {}

  /**
   * The aggregate described by {@code spec}. A {@code sketchSize} of 0 or less, or no fractions,
   * means the defaults (HLL lgK 12; KLL k 200; fractions 0.5, 0.9, 0.99).
   *
   * @throws IllegalArgumentException for an unknown type, a sketch size out of range (lgK 4..21, k
   *     8..65535) or a fraction outside [0, 1]
   */
  public static Aggregate<?> create(AggregateSpec spec) {
    String type = spec.type();
    if (type == null) {
      throw new IllegalArgumentException("aggregate type is missing; expected one of " + TYPES);
    }
    return switch (type) {
      case "count" -> new CountAggregate();
      case "sum" -> new SumAggregate();
      case "min" -> ExtremumAggregate.min();
      case "max" -> ExtremumAggregate.max();
      case "mean" -> new MeanAggregate();
      case "collect" -> new CollectAggregate();
      case "latest" -> new LatestAggregate();
      case "distinctCount" ->
          new DistinctCountAggregate(
              orDefault(spec.sketchSize(), DistinctCountAggregate.DEFAULT_LG_K));
      case "quantiles" ->
          new QuantilesAggregate(
              orDefault(spec.sketchSize(), QuantilesAggregate.DEFAULT_K),
              spec.fractions().isEmpty() ? QuantilesAggregate.DEFAULT_FRACTIONS : spec.fractions());
      case "ohlc" -> new OhlcAggregate();
      default ->
          throw new IllegalArgumentException(
              "unknown aggregate type '" + type + "'; expected one of " + TYPES);
    };
  }

  private static int orDefault(int sketchSize, int defaultSize) {
    return sketchSize > 0 ? sketchSize : defaultSize;
  }
}
