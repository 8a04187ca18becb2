package io.eventide.simulation;

import io.eventide.pipeline.PipelineDefinition;
import java.util.List;

/**
 * A validated {@code /simulate} request.
 *
 * @param processingTimeStart the processing time before the first step
 */
public record SimulationRequest(
    PipelineDefinition pipeline, long processingTimeStart, List<SimulationStep> steps) {
  public SimulationRequest {
    steps = List.copyOf(steps);
  }
}
