package io.eventide.security;

/**
 * Requests per credential. In memory for now; a Redis token bucket would implement the same
 * contract once Eventide has Redis, so that replicas share one budget per credential.
 */
public interface RateLimiter {

  /** Takes one request from the credential's budget. */
  Decision tryAcquire(String credential);

  /**
   * @param allowed whether the request may proceed
   * @param retryAfterSeconds when refused, how long until a request would be allowed (≥ 1)
   */
  record Decision(boolean allowed, long retryAfterSeconds) {
    static final Decision ALLOWED = new Decision(true, 0);
  }
}
