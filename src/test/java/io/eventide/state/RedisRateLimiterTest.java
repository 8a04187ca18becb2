package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.security.RateLimiter;
import io.eventide.security.SecurityProperties;
import io.eventide.state.redis.RedisRateLimiter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;

/**
 * With the Redis store, replicas draw on one token bucket per credential: two limiters (as two
 * replicas would have) over one Redis grant the burst once between them, not once each.
 */
class RedisRateLimiterTest {
  private final String prefix = TestRedis.newKeyPrefix();
  private final LettuceConnectionFactory factory = TestRedis.connectionFactory(TestRedis.url());

  @AfterEach
  void close() {
    factory.destroy();
    TestRedis.delete(prefix);
  }

  @Test
  void replicasShareOneBucketPerCredential() {
    RateLimiter first = limiter(factory);
    RateLimiter second = limiter(factory);
    assertThat(take(first, "busy").allowed()).isTrue();
    assertThat(take(second, "busy").allowed()).isTrue();
    assertThat(take(first, "busy").allowed()).isTrue();
    RateLimiter.Decision refused = take(second, "busy");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfterSeconds()).isBetween(1L, 2L);
    assertThat(take(first, "calm").allowed()).isTrue();
    // At one token a second one comes back, for either replica; a refused take costs nothing.
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> take(first, "busy").allowed());
    assertThat(take(second, "busy").allowed()).isFalse();
    assertThat(TestRedis.keys(prefix + ":rate:*")).hasSize(2);
  }

  @Test
  void aLocalBucketLimitsWhileRedisDoesNotAnswer() {
    LettuceConnectionFactory nowhere = TestRedis.connectionFactory("redis://127.0.0.1:1");
    try {
      assertLocalBucket(limiter(nowhere));
    } finally {
      nowhere.destroy();
    }
  }

  /** A Redis of its own, out of memory: the shared one must not be starved for other tests. */
  @Test
  void aLocalBucketLimitsWhileRedisIsOutOfMemory() throws Exception {
    try (StoppableRedis full = StoppableRedis.start()) {
      LettuceConnectionFactory f = TestRedis.connectionFactory(full.url());
      try {
        ReactiveRedisConnection connection = f.getReactiveConnection();
        connection.serverCommands().setConfig("maxmemory", "1").block(Duration.ofSeconds(10));
        connection.close();
        assertLocalBucket(limiter(f));
      } finally {
        f.destroy();
      }
    }
  }

  /** The burst of 3 is granted once, by this replica alone, and then refused with a wait. */
  private static void assertLocalBucket(RateLimiter limiter) {
    for (int i = 0; i < 3; i++) {
      assertThat(take(limiter, "busy").allowed()).as("request %d", i).isTrue();
    }
    RateLimiter.Decision refused = take(limiter, "busy");
    assertThat(refused.allowed()).isFalse();
    assertThat(refused.retryAfterSeconds()).isBetween(1L, 2L);
    assertThat(take(limiter, "calm").allowed()).isTrue();
  }

  private RateLimiter limiter(LettuceConnectionFactory f) {
    return new RedisRateLimiter(
        new ReactiveStringRedisTemplate(f),
        TestRedis.stateProperties(prefix),
        // One token a second: the takes that must meet an empty bucket have a second to do it.
        new SecurityProperties(
            true, List.of(), null, new SecurityProperties.RateLimit(1, 3, 100), null, null));
  }

  private static RateLimiter.Decision take(RateLimiter limiter, String credential) {
    return limiter.tryAcquire(credential).block(Duration.ofSeconds(10));
  }
}
