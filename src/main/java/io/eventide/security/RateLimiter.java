package io.eventide.security;

import reactor.core.publisher.Mono;

/**
 * Requests per credential, as a token bucket: in this process with the memory store, in Redis with
 * the Redis store, so that replicas share one budget per credential.
 */
public interface RateLimiter {

  /** Takes one request from the credential's budget. */
  Mono<Decision> tryAcquire(String credential);

  /**
   * @param allowed whether the request may proceed
   * @param retryAfterSeconds when refused, how long until a request would be allowed (≥ 1)
   */
  record Decision(boolean allowed, long retryAfterSeconds) {
    public static final Decision ALLOWED = new Decision(true, 0);
  }
}
