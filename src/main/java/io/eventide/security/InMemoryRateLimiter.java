package io.eventide.security;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import reactor.core.publisher.Mono;

/**
 * A token bucket per credential, in this process only: with several replicas each grants the full
 * rate. Buckets are tiny and credentials few (keys and JWT subjects), so none is ever evicted.
 */
final class InMemoryRateLimiter implements RateLimiter {
  private final double perNano;
  private final double burst;
  private final LongSupplier nanoTime;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  InMemoryRateLimiter(int perSecond, int burst, LongSupplier nanoTime) {
    this.perNano = perSecond / 1e9;
    this.burst = burst;
    this.nanoTime = nanoTime;
  }

  @Override
  public Mono<Decision> tryAcquire(String credential) {
    return Mono.just(take(credential));
  }

  Decision take(String credential) {
    Bucket bucket =
        buckets.computeIfAbsent(credential, c -> new Bucket(burst, nanoTime.getAsLong()));
    synchronized (bucket) {
      long now = nanoTime.getAsLong();
      bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updated) * perNano);
      bucket.updated = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return Decision.ALLOWED;
      }
      double waitNanos = (1 - bucket.tokens) / perNano;
      return new Decision(false, Math.max(1, (long) Math.ceil(waitNanos / 1e9)));
    }
  }

  private static final class Bucket {
    double tokens;
    long updated;

    Bucket(double tokens, long updated) {
      this.tokens = tokens;
      this.updated = updated;
    }
  }
}
