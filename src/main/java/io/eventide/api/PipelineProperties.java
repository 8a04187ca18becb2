package io.eventide.api;

import io.eventide.definition.PipelineLimits;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Bounds on pipeline definitions (400 beyond).
 *
 * @param maxAggregates named aggregates one pipeline may have
 * @param maxKeyFields fields a composite key may have
 * @param maxExpressionLength the most characters a CEL filter or expr may have
 * @param maxExpressionDepth how deeply a CEL filter or expr may nest
 * @param maxExpressionIterations iterations the comprehensions of one evaluation may take; beyond
 *     it the event is dead-lettered invalid
 * @param maxExpressionAllocation characters, list elements and map entries the values one
 *     evaluation builds may add up to; beyond it the event is dead-lettered invalid
 */
@Validated
@ConfigurationProperties("eventide.pipelines")
public record PipelineProperties(
    @DefaultValue("32") @Min(1) int maxAggregates,
    @DefaultValue("8") @Min(1) int maxKeyFields,
    @DefaultValue("1024") @Min(1) int maxExpressionLength,
    @DefaultValue("32") @Min(1) int maxExpressionDepth,
    @DefaultValue("1000") @Min(1) int maxExpressionIterations,
    @DefaultValue("1000000") @Min(1) long maxExpressionAllocation) {

  /** What the parser checks definitions against. */
  public PipelineLimits limits() {
    return new PipelineLimits(
        maxAggregates,
        maxKeyFields,
        maxExpressionLength,
        maxExpressionDepth,
        maxExpressionIterations,
        maxExpressionAllocation);
  }
}
