package io.eventide.security;

import java.net.InetSocketAddress;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Failed authentications per client address, as a token bucket that each failure takes from. An
 * address that has spent it gets 429 for any request that carries credentials, before they are
 * checked: checking is what costs (a JWT's signature, or a fetch of the issuer's keys). Requests
 * without credentials are not authentications and pass.
 */
final class AuthenticationFailures implements WebFilter {
  private final InMemoryRateLimiter failures;

  AuthenticationFailures(InMemoryRateLimiter failures) {
    this.failures = failures;
  }

  static boolean presentsCredentials(ServerWebExchange exchange) {
    HttpHeaders headers = exchange.getRequest().getHeaders();
    return headers.containsHeader(HttpHeaders.AUTHORIZATION)
        || headers.containsHeader(ApiKeyConverter.HEADER);
  }

  /** Counts a rejected credential against the request's address. */
  void failed(ServerWebExchange exchange) {
    failures.take(address(exchange));
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    if (!presentsCredentials(exchange)) {
      return chain.filter(exchange);
    }
    RateLimiter.Decision decision = failures.peek(address(exchange));
    if (decision.allowed()) {
      return chain.filter(exchange);
    }
    return Problems.tooManyRequests(
        exchange, "too many failed authentications from this address", decision);
  }

  private static String address(ServerWebExchange exchange) {
    InetSocketAddress remote = exchange.getRequest().getRemoteAddress();
    return remote == null || remote.getAddress() == null
        ? "unknown"
        : remote.getAddress().getHostAddress();
  }
}
