package io.eventide.simulation;

import io.eventide.definition.json.InvalidInputException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

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
   * @param cancelled whether the client went away; checked as the run goes
   * @throws InvalidInputException when the run exceeds a limit on its output or its time
   * @throws CancellationException when cancelled
   */
  public SimulationResult run(SimulationRequest request, BooleanSupplier cancelled) {
    SimulationBudget budget = new SimulationBudget(limits, cancelled);
    SimulationRun run =
        new SimulationRun(
            request.pipeline(),
            request.processingTimeStart(),
            request.autoWatermark(),
            request.progress(),
            limits,
            budget);
    List<SimulationStep> steps = request.steps();
    for (int i = 0; i < steps.size(); i++) {
      budget.check(i);
      run.step(i, steps.get(i));
    }
    return run.result();
  }
}
