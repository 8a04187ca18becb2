package io.eventide.security;

import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.server.authentication.ServerAuthenticationConverter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Mono;

/**
 * Finds an API key in {@code X-Api-Key} or in {@code Authorization: Bearer}, or, on the GET stream
 * routes only, in the {@code access_token} query parameter (RFC 6750 §2.3), which is what a
 * browser's EventSource can send. A bearer token with two dots is a JWT (compact JWS) and is left
 * to the resource server; API keys never contain dots.
 */
final class ApiKeyConverter implements ServerAuthenticationConverter {
  static final String HEADER = "X-Api-Key";
  static final String ACCESS_TOKEN = "access_token";
  private static final String BEARER = "Bearer ";

  /** Where EventSource subscribes: the routes whose URLs may carry a credential. */
  private static final List<PathPattern> STREAM_ROUTES =
      List.of(
          PathPatternParser.defaultInstance.parse("/pipelines/{name}/panes"),
          PathPatternParser.defaultInstance.parse("/pipelines/status"));

  @Override
  public Mono<Authentication> convert(ServerWebExchange exchange) {
    String key = exchange.getRequest().getHeaders().getFirst(HEADER);
    if (key == null) {
      String bearer = bearer(exchange.getRequest());
      key = bearer != null && !isJwt(bearer) ? bearer : null;
    }
    return key == null || key.isBlank()
        ? Mono.empty()
        : Mono.just(ApiKeyAuthentication.presented(key.trim()));
  }

  /**
   * The bearer token of the {@code Authorization} header, else of the {@code access_token} query
   * parameter where a stream route allows it; null if neither.
   */
  static String bearer(ServerHttpRequest request) {
    String authorization = request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
    if (authorization != null) {
      return authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
          ? authorization.substring(BEARER.length()).trim()
          : null;
    }
    return streamRoute(request) ? request.getQueryParams().getFirst(ACCESS_TOKEN) : null;
  }

  private static boolean streamRoute(ServerHttpRequest request) {
    HttpMethod method = request.getMethod();
    return (HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method))
        && STREAM_ROUTES.stream()
            .anyMatch(p -> p.matches(request.getPath().pathWithinApplication()));
  }

  static boolean isJwt(String token) {
    return token.chars().filter(c -> c == '.').count() == 2;
  }
}
