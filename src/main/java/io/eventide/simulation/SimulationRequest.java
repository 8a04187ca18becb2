package io.eventide.simulation;

import io.eventide.definition.PipelineDefinition;
import java.util.List;

/**
 * A validated {@code /simulate} request.
 *
 * @param processingTimeStart the processing time before the first step
 * @param autoWatermark derive the watermark from the events by the pipeline's live source rules
 *     (out-of-orderness, future skew against simulated processing time, idleness) instead of only
 *     from explicit watermark steps
 */
public record SimulationRequest(
    PipelineDefinition pipeline,
    long processingTimeStart,
    boolean autoWatermark,
    List<SimulationStep> steps) {
  public SimulationRequest {
    steps = List.copyOf(steps);
  }
}
