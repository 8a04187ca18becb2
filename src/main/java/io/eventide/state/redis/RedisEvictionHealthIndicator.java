package io.eventide.state.redis;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import reactor.core.publisher.Mono;

/**
 * DOWN while Redis, or any node of a Redis Cluster, may evict keys. Eventide's state, event ids and
 * fencing epochs are data of record: an evicted id counts an event twice, an evicted key state or
 * meta hash loses windows or lets a fenced owner write. Only {@code maxmemory-policy noeviction}
 * keeps them; under memory pressure Redis then refuses writes, which Eventide answers with 503 and
 * nothing is half applied.
 *
 * <p>Where {@code CONFIG} is not allowed (some managed services rename it), the policy cannot be
 * read: the check reports UNKNOWN, which does not take the service out of readiness, and says so in
 * the log; the operator must then make sure of it.
 */
public class RedisEvictionHealthIndicator extends AbstractReactiveHealthIndicator {
  static final String REQUIRED = "noeviction";
  private static final Logger log = LoggerFactory.getLogger(RedisEvictionHealthIndicator.class);

  private final ReactiveRedisConnectionFactory factory;
  private volatile String lastSeen;

  public RedisEvictionHealthIndicator(ReactiveRedisConnectionFactory factory) {
    super("Redis eviction policy check failed");
    this.factory = factory;
  }

  @Override
  protected Mono<Health> doHealthCheck(Health.Builder builder) {
    return Mono.usingWhen(
            Mono.fromSupplier(factory::getReactiveConnection),
            c -> c.serverCommands().getConfig("maxmemory-policy"),
            c -> c.closeLater())
        .map(config -> policy(RedisConfigReplies.values(config, "maxmemory-policy")))
        .map(policy -> health(builder, policy))
        .onErrorResume(e -> Mono.just(unreadable(builder, e)));
  }

  /**
   * The policy that decides: on a Redis Cluster one node that may evict is enough to lose a
   * pipeline's keys, so any node's policy other than noeviction is the answer.
   */
  private static String policy(List<String> nodes) {
    return nodes.stream()
        .filter(policy -> !REQUIRED.equals(policy))
        .findFirst()
        .orElse(nodes.isEmpty() ? "" : REQUIRED);
  }

  private Health health(Health.Builder builder, String policy) {
    seen(policy);
    builder.withDetail("maxmemoryPolicy", policy);
    if (REQUIRED.equals(policy)) {
      return builder.up().build();
    }
    return builder
        .down()
        .withDetail(
            "reason",
            "maxmemory-policy must be noeviction: evicted ids, state or epochs mean events counted"
                + " twice or lost")
        .build();
  }

  private Health unreadable(Health.Builder builder, Throwable e) {
    seen("unreadable");
    return builder.unknown().withDetail("reason", "CONFIG GET refused: " + e.getMessage()).build();
  }

  /** Says it once per change, not at every probe. */
  private void seen(String policy) {
    if (policy.equals(lastSeen)) {
      return;
    }
    lastSeen = policy;
    if (REQUIRED.equals(policy)) {
      log.info("Redis maxmemory-policy is noeviction");
    } else if ("unreadable".equals(policy)) {
      log.warn(
          "Redis maxmemory-policy cannot be read (CONFIG refused); make sure it is noeviction,"
              + " or evictions will count events twice or lose state");
    } else {
      log.error(
          "Redis maxmemory-policy is {}: Eventide needs noeviction (evictions count events twice"
              + " or lose state); readiness is DOWN until it is changed",
          policy);
    }
  }
}
