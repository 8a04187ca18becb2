package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.state.redis.RedisEvictionHealthIndicator;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis that may evict keys takes the service out of readiness: on a Redis of its own, the check
 * follows the policy as it is changed.
 */
class RedisEvictionHealthTest {
  @Test
  void readinessIsDownUnlessRedisRefusesToEvict() throws Exception {
    try (StoppableRedis redis = StoppableRedis.start()) {
      LettuceConnectionFactory factory = TestRedis.connectionFactory(redis.url());
      try {
        RedisEvictionHealthIndicator check = new RedisEvictionHealthIndicator(factory);
        assertThat(check.health().block().getStatus()).isEqualTo(Status.UP);

        setPolicy(factory, "allkeys-lru");
        Health evicting = check.health().block();
        assertThat(evicting.getStatus()).isEqualTo(Status.DOWN);
        assertThat(evicting.getDetails()).containsEntry("maxmemoryPolicy", "allkeys-lru");

        setPolicy(factory, "noeviction");
        assertThat(check.health().block().getStatus()).isEqualTo(Status.UP);
      } finally {
        factory.destroy();
      }
    }
  }

  private static void setPolicy(LettuceConnectionFactory factory, String policy) {
    try (RedisConnection c = factory.getConnection()) {
      c.serverCommands().setConfig("maxmemory-policy", policy);
    }
  }
}
