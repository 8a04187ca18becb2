package io.eventide.ops;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What the {@code pipelines} health indicator, part of the readiness group, reports.
 *
 * @param watermarkStall how long a pipeline may keep receiving events while its input watermark
 *     does not advance before readiness reports DOWN; 0 disables the check
 */
@Validated
@ConfigurationProperties("eventide.health")
public record HealthProperties(@DefaultValue("0s") @NotNull @DurationMin Duration watermarkStall) {

  boolean stallCheckEnabled() {
    return !watermarkStall.isZero();
  }
}
