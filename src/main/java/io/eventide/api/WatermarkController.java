package io.eventide.api;

import io.eventide.runtime.RunningPipelines;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * {@code /pipelines/{name}/watermark}: where event time stands (GET), and a producer's statement
 * that it has reached a time (POST, punctuation).
 */
@RestController
@RequestMapping(path = "/pipelines", produces = MediaType.APPLICATION_JSON_VALUE)
class WatermarkController {
  private final DefinedPipelines pipelines;
  private final RunningPipelines runtimes;
  private final RequestJson requestJson;
  private final IngestPermits permits;

  WatermarkController(
      DefinedPipelines pipelines,
      RunningPipelines runtimes,
      RequestJson requestJson,
      IngestPermits permits) {
    this.pipelines = pipelines;
    this.runtimes = runtimes;
    this.requestJson = requestJson;
    this.permits = permits;
  }

  @GetMapping(path = "/{name}/watermark")
  Mono<JsonNode> watermark(@PathVariable String name) {
    return pipelines
        .named(name)
        .flatMap(d -> Mono.fromFuture(() -> runtimes.watermark(d)))
        .map(WatermarkJson::toJson);
  }

  @PostMapping(path = "/{name}/watermark", consumes = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> post(
      @PathVariable String name, @RequestBody byte[] body, ServerWebExchange exchange) {
    WatermarkRequest request = WatermarkRequest.of(requestJson.parse(body));
    String traceparent = IngestSpan.of(exchange).traceparent();
    return permits.admit(
        runtimes.using(
            name, () -> pipelines.named(name), runtime -> request.applyTo(runtime, traceparent)));
  }
}
