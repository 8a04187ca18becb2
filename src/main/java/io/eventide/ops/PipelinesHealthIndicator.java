package io.eventide.ops;

import io.eventide.definition.json.Timestamps;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * The {@code pipelines} health component, in the readiness group: DOWN while a pipeline's watermark
 * is stalled (see {@link WatermarkStalls}), always UP when {@code eventide.health.watermark-stall}
 * is 0.
 */
@Component
public class PipelinesHealthIndicator extends AbstractHealthIndicator {
  private final WatermarkStalls stalls;
  private final HealthProperties properties;

  public PipelinesHealthIndicator(WatermarkStalls stalls, HealthProperties properties) {
    super("pipeline watermark check failed");
    this.stalls = stalls;
    this.properties = properties;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    if (!properties.stallCheckEnabled()) {
      builder.up().withDetail("watermarkStall", "disabled");
      return;
    }
    List<WatermarkStalls.Stall> stalled = stalls.stalled(properties.watermarkStall());
    builder.withDetail("watermarkStall", properties.watermarkStall().toString());
    if (stalled.isEmpty()) {
      builder.up();
      return;
    }
    Map<String, Object> details = new LinkedHashMap<>();
    for (WatermarkStalls.Stall s : stalled) {
      details.put(
          s.pipeline(),
          Map.of(
              "inputWatermark", Timestamps.formatWatermark(s.watermark()),
              "watermarkAdvancedAt", Timestamps.format(s.advancedAt()),
              "lastEventAt", Timestamps.format(s.lastEventAt())));
    }
    builder.down().withDetail("stalled", details);
  }
}
