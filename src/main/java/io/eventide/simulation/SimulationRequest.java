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
 * @param progress record the pipeline's progress among the panes, where a pane stream sends it
 */
public record SimulationRequest(
    PipelineDefinition pipeline,
    long processingTimeStart,
    boolean autoWatermark,
    boolean progress,
    List<SimulationStep> steps) {
  public SimulationRequest {
    steps = List.copyOf(steps);
  }
}
