package io.eventide.state.redis;

import io.eventide.security.InMemoryRateLimiter;
import io.eventide.security.RateLimiter;
import io.eventide.security.SecurityProperties;
import io.eventide.state.StateProperties;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Mono;

/**
 * The token bucket of each credential in Redis, taken from by one script call per request, so that
 * every replica draws on the same budget. While Redis fails (does not answer, is out of memory, or
 * refuses the script), each replica falls back to a bucket of its own at the same rate: the limit
 * holds per replica, and requests that need no Redis (simulations) are still served, where failing
 * closed would refuse them and letting everything through would let a flood in while Redis is sick.
 */
public class RedisRateLimiter implements RateLimiter {
  private static final Logger log = LoggerFactory.getLogger(RedisRateLimiter.class);

  @SuppressWarnings("rawtypes")
  private static final RedisScript<List> TAKE =
      RedisScript.of(new ClassPathResource("redis/rate-limit.lua"), List.class);

  private final ReactiveStringRedisTemplate redis;
  private final String prefix;
  private final List<String> limits;
  private final AtomicBoolean failing = new AtomicBoolean();
  private final RateLimiter local;

  public RedisRateLimiter(
      ReactiveStringRedisTemplate redis, StateProperties state, SecurityProperties security) {
    this.redis = redis;
    this.prefix = new RedisKeys(state.keyPrefix()).rateLimit("");
    SecurityProperties.RateLimit r = security.rateLimit();
    this.limits = List.of(Integer.toString(r.perSecond()), Integer.toString(r.burst()));
    this.local = InMemoryRateLimiter.of(r);
  }

  @Override
  public Mono<Decision> tryAcquire(String credential) {
    return redis
        .execute(TAKE, List.of(prefix + credential), limits)
        .next()
        .map(
            reply -> {
              failing.set(false);
              long allowed = ((Number) reply.get(0)).longValue();
              long wait = ((Number) reply.get(1)).longValue();
              return allowed == 1 ? Decision.ALLOWED : new Decision(false, wait);
            })
        .onErrorResume(
            e -> {
              if (failing.compareAndSet(false, true)) {
                log.warn("rate limits are per replica while Redis fails: {}", e.getMessage());
              }
              return local.tryAcquire(credential);
            });
  }
}
