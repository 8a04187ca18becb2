package io.eventide.security;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.server.authentication.ServerAuthenticationConverter;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Finds an API key in {@code X-Api-Key} or in {@code Authorization: Bearer}. A bearer token with
 * two dots is a JWT (compact JWS) and is left to the resource server; API keys never contain dots.
 */
final class ApiKeyConverter implements ServerAuthenticationConverter {
  static final String HEADER = "X-Api-Key";
  private static final String BEARER = "Bearer ";

  @Override
  public Mono<Authentication> convert(ServerWebExchange exchange) {
    HttpHeaders headers = exchange.getRequest().getHeaders();
    String key = headers.getFirst(HEADER);
    if (key == null) {
      String bearer = bearer(headers);
      key = bearer != null && !isJwt(bearer) ? bearer : null;
    }
    return key == null || key.isBlank()
        ? Mono.empty()
        : Mono.just(ApiKeyAuthentication.presented(key.trim()));
  }

  static String bearer(HttpHeaders headers) {
    String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
    if (authorization == null
        || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return null;
    }
    return authorization.substring(BEARER.length()).trim();
  }

  static boolean isJwt(String token) {
    return token.chars().filter(c -> c == '.').count() == 2;
  }
}
