package io.eventide.security;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * 429 with {@code Retry-After} once a credential has spent its budget. Unauthenticated requests
 * (health probes, the API description) are not counted: they reach nothing that costs much. Buckets
 * are named by kind and name ({@link Credentials#id}), so that a JWT whose subject reads like a key
 * name cannot spend that key's budget.
 */
final class RateLimitFilter implements WebFilter {
  private final RateLimiter limiter;

  RateLimitFilter(RateLimiter limiter) {
    this.limiter = limiter;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    return ReactiveSecurityContextHolder.getContext()
        .map(SecurityContext::getAuthentication)
        .filter(Authentication::isAuthenticated)
        .flatMap(a -> limiter.tryAcquire(Credentials.id(a)))
        .defaultIfEmpty(RateLimiter.Decision.ALLOWED)
        .flatMap(
            decision -> {
              if (decision.allowed()) {
                return chain.filter(exchange);
              }
              return Problems.tooManyRequests(
                  exchange, "this credential's rate limit is spent", decision);
            });
  }
}
