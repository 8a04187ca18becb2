package io.eventide.security;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
    String query = request.getURI().getRawQuery();
    if (query == null) {
      return request;
    }
    // The raw query, split here rather than read through getQueryParams(): Spring matches names
    // after decoding them, so access%5Ftoken is the parameter too and must go with it, and Spring
    // logs a value it cannot decode, the credential included.
    String token = null;
    List<String> kept = new ArrayList<>();
    for (String pair : query.split("&", -1)) {
      int eq = pair.indexOf('=');
      if (!NAME.equals(decoded(eq < 0 ? pair : pair.substring(0, eq)))) {
        kept.add(pair);
      } else if (token == null) {
        token = eq < 0 ? "" : decoded(pair.substring(eq + 1));
      }
    }
    if (token == null) {
      return request;
    }
    URI without =
        UriComponentsBuilder.fromUri(request.getURI())
            .replaceQuery(kept.isEmpty() ? null : String.join("&", kept))
            .build(true)
            .toUri();
    boolean asHeader =
        streamRoute(request) && !request.getHeaders().containsHeader(HttpHeaders.AUTHORIZATION);
    String credential = token;
    return request
        .mutate()
        .uri(without)
        .headers(
            h -> {
              if (asHeader && !credential.isBlank()) {
                h.set(HttpHeaders.AUTHORIZATION, "Bearer " + credential);
              }
            })
        .build();
  }

  /**
   * As Spring decodes query parameters; what does not decode is kept as sent (a name that is then
   * not {@value #NAME}, or a credential that then fails its check).
   */
  private static String decoded(String raw) {
    try {
      return URLDecoder.decode(raw, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      return raw;
    }
  }

  private static boolean streamRoute(ServerHttpRequest request) {
    HttpMethod method = request.getMethod();
    return (HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method))
        && STREAM_ROUTES.stream()
            .anyMatch(p -> p.matches(request.getPath().pathWithinApplication()));
  }
}
