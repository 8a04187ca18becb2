package io.eventide.security;

import java.nio.charset.StandardCharsets;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes RFC 9457 problem details from web filters, which answer before any controller advice
 * could; the fields are those ProblemHandler's answers carry.
 */
final class Problems {
  private static final JsonMapper JSON = JsonMapper.shared();

  private Problems() {}

  /** 429 with {@code Retry-After}, for a refusal by a rate limiter. */
  static Mono<Void> tooManyRequests(
      ServerWebExchange exchange, String why, RateLimiter.Decision decision) {
    String seconds = Long.toString(decision.retryAfterSeconds());
    exchange.getResponse().getHeaders().set("Retry-After", seconds);
    return write(
        exchange,
        HttpStatus.TOO_MANY_REQUESTS,
        "Too many requests",
        why + "; retry after " + seconds + " s");
  }

  static Mono<Void> write(
      ServerWebExchange exchange, HttpStatus status, String title, String detail) {
    ServerHttpResponse response = exchange.getResponse();
    if (response.isCommitted()) {
      return Mono.empty();
    }
    ObjectNode problem = JsonNodeFactory.instance.objectNode();
    problem.put("type", "about:blank");
    problem.put("title", title);
    problem.put("status", status.value());
    problem.put("detail", detail);
    problem.put("instance", exchange.getRequest().getPath().value());
    response.setStatusCode(status);
    response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
    byte[] bytes = JSON.writeValueAsString(problem).getBytes(StandardCharsets.UTF_8);
    DataBuffer buffer = response.bufferFactory().wrap(bytes);
    return response.writeWith(Mono.just(buffer));
  }
}
