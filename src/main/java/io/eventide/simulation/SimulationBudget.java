package io.eventide.simulation;

import io.eventide.pipeline.InvalidInputException;
import io.eventide.pipeline.Violation;
import io.eventide.pipeline.Violations;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * What one simulation may still spend: output bytes and wall time, and whether its client is still
 * there. Checked as records are produced and between steps, so a run that outgrows its budget stops
 * at the step that did, saying which.
 */
final class SimulationBudget {
  private final long maxBytes;
  private final long deadline;
  private final long maxMillis;
  private final BooleanSupplier cancelled;
  private long bytes;

  SimulationBudget(SimulationLimits limits, BooleanSupplier cancelled) {
    this.maxBytes = limits.maxOutputBytes();
    this.maxMillis = limits.maxDuration().toMillis();
    this.deadline = System.nanoTime() + limits.maxDuration().toNanos();
    this.cancelled = cancelled;
  }

  /** Charges a record of {@code size} bytes produced by {@code step}. */
  void spend(int step, long size) {
    bytes += size;
    if (bytes > maxBytes) {
      throw exceeded(step, "more than " + maxBytes + " bytes of records");
    }
    check(step);
  }

  /**
   * @throws CancellationException when the client went away: nobody waits for the answer
   */
  void check(int step) {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("the client went away");
    }
    if (System.nanoTime() > deadline) {
      throw exceeded(step, "for longer than " + maxMillis + " ms");
    }
  }

  private static InvalidInputException exceeded(int step, String what) {
    return new InvalidInputException(
        List.of(
            new Violation(
                Violations.child("/steps", step),
                "the simulation would run "
                    + what
                    + " by this step; split it into smaller simulations")));
  }
}
