package io.eventide.simulation;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Bounds on one {@code POST /simulate} request, which runs in memory inside one HTTP call: by what
 * it is given, and by what it produces and how long it runs (docs/simulate.md).
 *
 * @param maxSteps the most steps a request may have
 * @param maxEvents the most events over all its steps
 * @param maxOutputs the most panes, and separately the most dropped records, it may produce
 * @param maxOutputBytes the most its pane and dropped records may take, rendered as JSON
 * @param maxDuration the longest it may run
 */
@Validated
@ConfigurationProperties("eventide.simulation")
public record SimulationProperties(
    @DefaultValue("10000") @Min(1) int maxSteps,
    @DefaultValue("100000") @Min(1) int maxEvents,
    @DefaultValue("100000") @Min(1) int maxOutputs,
    @DefaultValue("64MB") @NotNull DataSize maxOutputBytes,
    @DefaultValue("10s") @NotNull Duration maxDuration) {}
