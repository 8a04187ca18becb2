package io.eventide.simulation;

import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.definition.json.Violations;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * What one simulation may still spend: panes, dropped records, their bytes and wall time, and
 * whether its client is still there. Checked as each pane is rendered and each record produced, so
 * a run that outgrows its budget stops within the step that did, saying which.
 */
final class SimulationBudget {
  private final long maxBytes;
  private final long deadline;
  private final long maxMillis;
  private final BooleanSupplier cancelled;
  private final int maxOutputs;
  private long bytes;
  private int panes;
  private int dropped;

  SimulationBudget(SimulationLimits limits, BooleanSupplier cancelled) {
    this.maxBytes = limits.maxOutputBytes();
    this.maxOutputs = limits.maxOutputs();
    this.maxMillis = limits.maxDuration().toMillis();
    this.deadline = System.nanoTime() + limits.maxDuration().toNanos();
    this.cancelled = cancelled;
  }

  /** Charges a pane of {@code size} bytes rendered by {@code step}, as the shard renders it. */
  void pane(int step, long size) {
    if (++panes > maxOutputs) {
      throw exceeded(step, "produce more than " + maxOutputs + " panes");
    }
    spend(step, size);
  }

  /** Charges a dropped record of {@code size} bytes produced by {@code step}. */
  void dropped(int step, long size) {
    if (++dropped > maxOutputs) {
      throw exceeded(step, "produce more than " + maxOutputs + " dropped records");
    }
    spend(step, size);
  }

  private void spend(int step, long size) {
    bytes += size;
    if (bytes > maxBytes) {
      throw exceeded(step, "produce more than " + maxBytes + " bytes of records");
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
      throw exceeded(step, "run for longer than " + maxMillis + " ms");
    }
  }

  private static InvalidInputException exceeded(int step, String what) {
    return new InvalidInputException(
        List.of(
            new Violation(
                Violations.child("/steps", step),
                "the simulation would "
                    + what
                    + " by this step; split it into smaller simulations")));
  }
}
