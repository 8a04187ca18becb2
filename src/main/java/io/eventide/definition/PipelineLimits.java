package io.eventide.definition;

/**
 * What a pipeline definition may grow to: its named aggregates and its CEL expressions.
 *
 * @param maxAggregates named aggregates one pipeline may have
 * @param maxKeyFields fields a composite key may have
 * @param maxExpressionLength the most characters (code points) a CEL expression may have
 * @param maxExpressionDepth how deeply a CEL expression may nest (calls, operators, parentheses)
 * @param maxExpressionIterations the most iterations one evaluation's comprehensions ({@code
 *     exists}, {@code all}, {@code map}, ...) may take; beyond it the event is invalid
 * @param maxExpressionAllocation the characters, list elements and map entries the values one
 *     evaluation builds may add up to; beyond it the event is invalid
 */
public record PipelineLimits(
    int maxAggregates,
    int maxKeyFields,
    int maxExpressionLength,
    int maxExpressionDepth,
    int maxExpressionIterations,
    long maxExpressionAllocation) {

  /** The defaults, as docs/configuration.md lists them. */
  public static final PipelineLimits DEFAULT = new PipelineLimits(32, 8, 1024, 32, 1000, 1_000_000);
}
