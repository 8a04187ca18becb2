package io.eventide.security;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import reactor.core.publisher.Mono;

/**
 * A token bucket per credential (or per client address), in this process only: with several
 * replicas each grants the full rate. At most {@code maxBuckets} are kept: a bucket that is full
 * again is idle and forgetting it changes no decision, so idle ones go first; while every bucket is
 * in use, the names that do not fit share one more bucket, so that a flood of names can neither buy
 * fresh budgets nor go uncounted.
 */
public final class InMemoryRateLimiter implements RateLimiter {
  private final double perNano;
  private final double burst;
  private final int maxBuckets;
  private final LongSupplier nanoTime;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
  private final Bucket overflow;

  InMemoryRateLimiter(int perSecond, int burst, int maxBuckets, LongSupplier nanoTime) {
    this.perNano = perSecond / 1e9;
    this.burst = burst;
    this.maxBuckets = maxBuckets;
    this.nanoTime = nanoTime;
    this.overflow = new Bucket(burst, nanoTime.getAsLong());
  }

  /** The limiter of {@code rateLimit}, on the system clock. */
  public static InMemoryRateLimiter of(SecurityProperties.RateLimit rateLimit) {
    return new InMemoryRateLimiter(
        rateLimit.perSecond(), rateLimit.burst(), rateLimit.maxCredentials(), System::nanoTime);
  }

  @Override
  public Mono<Decision> tryAcquire(String credential) {
    return Mono.just(take(credential));
  }

  Decision take(String credential) {
    return decide(credential, true);
  }

  /** What {@link #take} would answer, without taking anything. */
  Decision peek(String name) {
    return decide(name, false);
  }

  int size() {
    return buckets.size();
  }

  private Decision decide(String name, boolean take) {
    Bucket bucket = buckets.get(name);
    if (bucket == null) {
      if (buckets.size() >= maxBuckets) {
        forgetIdle();
      }
      if (buckets.size() >= maxBuckets) {
        bucket = overflow;
      } else if (!take) {
        return Decision.ALLOWED; // a new bucket is full
      } else {
        bucket = buckets.computeIfAbsent(name, c -> new Bucket(burst, nanoTime.getAsLong()));
      }
    }
    synchronized (bucket) {
      refill(bucket, nanoTime.getAsLong());
      if (bucket.tokens >= 1) {
        if (take) {
          bucket.tokens -= 1;
        }
        return Decision.ALLOWED;
      }
      double waitNanos = (1 - bucket.tokens) / perNano;
      return new Decision(false, Math.max(1, (long) Math.ceil(waitNanos / 1e9)));
    }
  }

  private void forgetIdle() {
    long now = nanoTime.getAsLong();
    buckets
        .entrySet()
        .removeIf(
            e -> {
              synchronized (e.getValue()) {
                refill(e.getValue(), now);
                return e.getValue().tokens >= burst;
              }
            });
  }

  private void refill(Bucket bucket, long now) {
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.updated) * perNano);
    bucket.updated = now;
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
