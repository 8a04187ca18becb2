package io.eventide.ops;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Eventide's own metrics.
 *
 * @param refresh how often gauges are registered for pipelines that started, and every series of a
 *     pipeline that stopped (deleted, or reset and not yet used again) is removed
 */
@Validated
@ConfigurationProperties("eventide.metrics")
public record MetricsProperties(
    @DefaultValue("10s") @NotNull @DurationMin(millis = 1) Duration refresh) {}
