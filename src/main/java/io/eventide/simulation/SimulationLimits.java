package io.eventide.simulation;

import java.time.Duration;

/**
 * Bounds on one {@code /simulate} request, which runs in memory inside a single HTTP call: by what
 * it is given, and by what it produces and how long it runs, since a small script (an aggregate
 * that collects every element, firing on each) can render far more than it was sent. Set by {@code
 * eventide.simulation.*}.
 *
 * @param maxSteps the most steps a request may have
 * @param maxEvents the most events over all its steps
 * @param maxOutputs the most panes, and separately the most dropped records, it may produce
 * @param maxOutputBytes the most bytes its pane and dropped records may take, rendered
 * @param maxDuration the longest it may run
 */
public record SimulationLimits(
    int maxSteps, int maxEvents, int maxOutputs, long maxOutputBytes, Duration maxDuration) {}
