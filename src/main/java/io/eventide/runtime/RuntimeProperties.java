package io.eventide.runtime;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The live runtime.
 *
 * @param shards shards per pipeline; 0 means one per core
 * @param workers threads that run the shards of all pipelines; 0 means one per core
 * @param tick how often the wall clock fires processing-time timers and moves idle watermarks
 */
@Validated
@ConfigurationProperties("eventide.runtime")
public record RuntimeProperties(
    @DefaultValue("0") @Min(0) int shards,
    @DefaultValue("0") @Min(0) int workers,
    @DefaultValue("100ms") Duration tick) {

  public int shardCount() {
    return shards > 0 ? shards : Runtime.getRuntime().availableProcessors();
  }

  public int workerCount() {
    return workers > 0 ? workers : Runtime.getRuntime().availableProcessors();
  }
}
