package io.eventide.security;

import java.net.URI;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Takes the {@code access_token} query parameter (RFC 6750 §2.3) out of every request's URL before
 * anything can log it, and on the GET stream routes, which a browser's EventSource opens and cannot
 * send headers to, hands it on as {@code Authorization: Bearer}, unless the request has an
 * Authorization header of its own. Everything after this sees a bearer credential like any other
 * and no URL with a credential in it: it wraps the whole handler, so it runs before Spring's
 * request logging.
 */
@Component
class AccessTokenParameter implements HttpHandlerDecoratorFactory {
  static final String NAME = "access_token";

  /** Where EventSource subscribes: the only routes whose URLs may carry a credential. */
  private static final List<PathPattern> STREAM_ROUTES =
      List.of(
          PathPatternParser.defaultInstance.parse("/pipelines/{name}/panes"),
          PathPatternParser.defaultInstance.parse("/pipelines/status"));

  @Override
  public HttpHandler apply(HttpHandler handler) {
    return (request, response) -> handler.handle(moved(request), response);
  }

  static ServerHttpRequest moved(ServerHttpRequest request) {
    String token = request.getQueryParams().getFirst(NAME);
    if (token == null) {
      return request;
    }
    URI without =
        UriComponentsBuilder.fromUri(request.getURI()).replaceQueryParam(NAME).build(true).toUri();
    boolean asHeader =
        streamRoute(request) && !request.getHeaders().containsHeader(HttpHeaders.AUTHORIZATION);
    return request
        .mutate()
        .uri(without)
        .headers(
            h -> {
              if (asHeader && !token.isBlank()) {
                h.set(HttpHeaders.AUTHORIZATION, "Bearer " + token);
              }
            })
        .build();
  }

  private static boolean streamRoute(ServerHttpRequest request) {
    HttpMethod method = request.getMethod();
    return (HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method))
        && STREAM_ROUTES.stream()
            .anyMatch(p -> p.matches(request.getPath().pathWithinApplication()));
  }
}
