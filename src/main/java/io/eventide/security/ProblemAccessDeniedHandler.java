package io.eventide.security;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.web.server.authorization.ServerAccessDeniedHandler;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** 403 as problem+json: the credential is known but lacks the role this route needs. */
final class ProblemAccessDeniedHandler implements ServerAccessDeniedHandler {

  @Override
  public Mono<Void> handle(ServerWebExchange exchange, AccessDeniedException e) {
    String method = exchange.getRequest().getMethod().name();
    return Problems.write(
        exchange,
        HttpStatus.FORBIDDEN,
        "Forbidden",
        "the credential may not " + method + " " + exchange.getRequest().getPath().value());
  }
}
