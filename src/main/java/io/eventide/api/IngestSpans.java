package io.eventide.api;

import io.eventide.ops.SpanTags;
import io.eventide.ops.TracingEnabled;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.List;
import org.springframework.context.annotation.Conditional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * Starts the ingest span of every event and watermark post, to a pipeline or to a stream
 * (docs/operations.md#tracing), and ends it once the post is answered. Its parent is the span
 * Spring made of the HTTP request, which continues the producer's {@code traceparent}; without one
 * (HTTP observations turned off), the producer's span itself. Only while tracing is on: off, no
 * post builds anything of tracing. Runs after the security filters: a post they refuse has no
 * ingest span (Spring's span of the request shows it).
 */
@Component
@Conditional(TracingEnabled.class)
final class IngestSpans implements WebFilter {
  static final String NAME = "eventide.ingest";

  private final Tracer tracer;
  private final Propagator propagator;

  IngestSpans(Tracer tracer, Propagator propagator) {
    this.tracer = tracer;
    this.propagator = propagator;
  }

  @Override
  public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
    Route route = Route.of(exchange.getRequest());
    if (route == null) {
      return chain.filter(exchange);
    }
    Span span =
        childOfRequest(exchange)
            .name(NAME)
            .tag(route.targetTag(), route.target())
            .tag(SpanTags.INPUT, route.input())
            .start();
    IngestSpan ingest = new IngestSpan(span, route.input().equals("events"));
    ingest.attachTo(exchange);
    return chain
        .filter(exchange)
        .doFinally(
            signal ->
                ingest.end(
                    signal == SignalType.CANCEL ? null : exchange.getResponse().getStatusCode()));
  }

  private Span.Builder childOfRequest(ServerWebExchange exchange) {
    Span request =
        ServerRequestObservationContext.findCurrent(exchange.getAttributes())
            .map(
                c ->
                    c.<TracingObservationHandler.TracingContext>get(
                        TracingObservationHandler.TracingContext.class))
            .map(TracingObservationHandler.TracingContext::getSpan)
            .orElse(null);
    return request != null
        ? tracer.spanBuilder().setParent(request.context())
        : propagator.extract(exchange.getRequest().getHeaders(), HttpHeaders::getFirst);
  }

  /**
   * An ingest route: {@code POST /pipelines/{name}/events} or {@code /watermark}, or the same under
   * {@code /streams/{stream}}.
   *
   * @param targetTag the span's attribute that names the pipeline or the stream
   * @param input {@code events} or {@code watermark}
   */
  private record Route(String targetTag, String target, String input) {
    static Route of(ServerHttpRequest request) {
      if (request.getMethod() != HttpMethod.POST) {
        return null;
      }
      // "/", "pipelines", "/", name, "/", "events"
      List<PathContainer.Element> path = request.getPath().pathWithinApplication().elements();
      if (path.size() != 6) {
        return null;
      }
      String input = path.get(5).value();
      if (!input.equals("events") && !input.equals("watermark")) {
        return null;
      }
      return switch (path.get(1).value()) {
        case "pipelines" -> new Route(SpanTags.PIPELINE, path.get(3).value(), input);
        case "streams" -> new Route(SpanTags.STREAM, path.get(3).value(), input);
        default -> null;
      };
    }
  }
}
