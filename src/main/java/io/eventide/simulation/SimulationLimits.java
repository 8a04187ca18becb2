package io.eventide.simulation;

/**
 * Bounds on one {@code /simulate} request, which runs in memory inside a single HTTP call.
 *
 * @param maxSteps the most steps a request may have
 * @param maxEvents the most events over all its steps
 * @param maxOutputs the most panes, and separately the most dropped records, it may produce
 */
public record SimulationLimits(int maxSteps, int maxEvents, int maxOutputs) {
  public static final SimulationLimits DEFAULT = new SimulationLimits(10_000, 100_000, 100_000);
}
