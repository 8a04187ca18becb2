package io.eventide.security;

import java.util.function.Consumer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * 401 as problem+json, with the challenge RFC 6750 asks for. Credentials that were presented and
 * refused are told to {@code onRejected}, which counts them per address.
 */
final class ProblemEntryPoint implements ServerAuthenticationEntryPoint {
  private final Consumer<ServerWebExchange> onRejected;

  ProblemEntryPoint(Consumer<ServerWebExchange> onRejected) {
    this.onRejected = onRejected;
  }

  @Override
  public Mono<Void> commence(ServerWebExchange exchange, AuthenticationException e) {
    boolean presented = AuthenticationFailures.presentsCredentials(exchange);
    if (presented) {
      onRejected.accept(exchange);
    }
    String challenge =
        presented
            ? "Bearer realm=\"eventide\", error=\"invalid_token\""
            : "Bearer realm=\"eventide\"";
    exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, challenge);
    String detail =
        !presented
            ? "credentials are required: an API key (X-Api-Key or Authorization: Bearer) or a JWT"
            : e instanceof InvalidBearerTokenException
                ? "the token is not valid: " + e.getMessage()
                : "the credentials are not valid";
    return Problems.write(exchange, HttpStatus.UNAUTHORIZED, "Unauthorized", detail);
  }
}
