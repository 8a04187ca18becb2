package io.eventide.simulation;

import java.util.List;

/**
 * Runs simulations: one engine on a manual clock per request, fed step by step. Deterministic and
 * side-effect free, so the same request always gives the same response.
 */
public final class Simulator {
  private final SimulationLimits limits;

  public Simulator(SimulationLimits limits) {
    this.limits = limits;
  }

  /**
   * @throws io.eventide.pipeline.InvalidInputException when the run exceeds the output limit
   */
  public SimulationResult run(SimulationRequest request) {
    SimulationRun run =
        new SimulationRun(
            request.pipeline(), request.processingTimeStart(), request.autoWatermark(), limits);
    List<SimulationStep> steps = request.steps();
    for (int i = 0; i < steps.size(); i++) {
      run.step(i, steps.get(i));
    }
    return run.result();
  }
}
