package io.eventide.state.redis;

import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import reactor.core.publisher.Mono;

/**
 * DOWN once Redis has lost the data this replica saw in it ({@link RedisStoreMarker}), with why and
 * since when; in any case how Redis persists its data, so that a store a restart would empty shows
 * before it does.
 */
public class RedisStoreHealthIndicator extends AbstractReactiveHealthIndicator {
  private final RedisStoreMarker marker;

  public RedisStoreHealthIndicator(RedisStoreMarker marker) {
    super("Redis store check failed");
    this.marker = marker;
  }

  @Override
  protected Mono<Health> doHealthCheck(Health.Builder builder) {
    String persistence = marker.persistence();
    builder.withDetail("persistence", persistence == null ? "not read yet" : persistence);
    String lost = marker.lost();
    if (lost != null) {
      return Mono.just(
          builder.down().withDetail("reason", lost).withDetail("lostAt", marker.lostAt()).build());
    }
    return Mono.just(builder.up().build());
  }
}
