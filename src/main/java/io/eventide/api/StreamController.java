package io.eventide.api;

import io.eventide.core.IngestResult;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.runtime.Delivery;
import io.eventide.runtime.PipelineInput;
import io.eventide.runtime.Streams;
import io.eventide.security.StreamProducers;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Takes events and watermarks for a stream and hands each post to every pipeline reading it. The
 * body is read and checked whole before any pipeline sees it, so that a body that is too large or
 * not JSON is refused for all of them alike; it is parsed once, and each pipeline reads its fields
 * from the same JSON trees through its own pointers. The body is read before a permit is taken and
 * parsed off the event loop, and each reader reads and applies its batches there too ({@link
 * EventReaders}).
 */
@RestController
@RequestMapping(path = "/streams", produces = MediaType.APPLICATION_JSON_VALUE)
class StreamController {
  private final Streams streams;
  private final StreamProducers producers;
  private final EventBodies bodies;
  private final RequestJson requestJson;
  private final IngestPermits permits;
  private final ProblemHandler problems;
  private final EventReaders eventReaders;

  StreamController(
      Streams streams,
      StreamProducers producers,
      EventBodies bodies,
      RequestJson requestJson,
      IngestPermits permits,
      ProblemHandler problems,
      EventReaders eventReaders) {
    this.streams = streams;
    this.producers = producers;
    this.bodies = bodies;
    this.requestJson = requestJson;
    this.permits = permits;
    this.problems = problems;
    this.eventReaders = eventReaders;
  }

  /** Takes the bodies of {@code POST /pipelines/{name}/events}, told by {@link EventBodyFormat}. */
  @PostMapping(path = "/{stream}/events")
  Mono<ResponseEntity<JsonNode>> events(
      @PathVariable String stream,
      @RequestParam(name = "strict", required = false) String strictParameter,
      ServerWebExchange exchange) {
    ServerHttpRequest request = exchange.getRequest();
    HttpHeaders headers = request.getHeaders();
    EventBodyFormat format = EventBodyFormat.of(headers);
    IngestSpan span = IngestSpan.of(exchange);
    bodies.checkDeclaredLength(request);
    boolean strict = IngestAnswer.flag("strict", strictParameter);
    // What each pipeline applied, for one that fails after some NDJSON batches.
    Map<String, IngestResult> applied = new ConcurrentHashMap<>();
    // The permit is taken once the body is in, and held until every reader has applied it.
    return readers(stream)
        .flatMap(
            readers ->
                bodies
                    .bytes(request.getBody())
                    .flatMap(
                        bytes ->
                            permits.admit(
                                deliver(
                                    stream, readers, bytes, format, headers, strict, span,
                                    applied))))
        .map(
            outcomes ->
                StreamAnswer.of(
                    stream,
                    HttpStatus.ACCEPTED,
                    outcomes,
                    IngestAnswer::json,
                    name -> {
                      IngestResult partly = applied.get(name);
                      return partly == null ? null : IngestAnswer.json(partly);
                    },
                    problems.retryAfterSeconds()));
  }

  /** A body that is in, parsed once off the event loop, to every reader. */
  private Mono<Map<String, Delivery<IngestResult>>> deliver(
      String stream,
      List<PipelineDefinition> readers,
      byte[] body,
      EventBodyFormat format,
      HttpHeaders headers,
      boolean strict,
      IngestSpan span,
      Map<String, IngestResult> applied) {
    return eventReaders
        .on(
            Mono.fromCallable(
                () ->
                    format == EventBodyFormat.NDJSON
                        ? bodies.ndjson(body, strict)
                        : List.of(bodies.events(body, format, headers))))
        .doOnNext(batches -> batches.forEach(b -> span.counted(b.size())))
        .flatMap(
            batches ->
                (strict ? readableByAll(stream, readers, batches) : Mono.empty())
                    .then(
                        streams.deliver(
                            readers,
                            runtime ->
                                ingest(runtime, batches, strict, span.traceparent(), applied))));
  }

  /**
   * The batches one after another, each committed before the next, as the pipeline route does, each
   * batch's rejections at their positions in the body.
   */
  private Mono<IngestResult> ingest(
      PipelineInput runtime,
      List<EventTexts> batches,
      boolean strict,
      String traceparent,
      Map<String, IngestResult> applied) {
    String name = runtime.definition().name();
    int[] firsts = new int[batches.size()];
    for (int i = 1; i < batches.size(); i++) {
      firsts[i] = firsts[i - 1] + batches.get(i - 1).size();
    }
    return Flux.range(0, batches.size())
        .concatMap(
            i ->
                eventReaders
                    .on(Mono.fromFuture(() -> runtime.post(batches.get(i), strict, traceparent)))
                    .map(result -> result.at(firsts[i]))
                    .doOnNext(result -> applied.merge(name, result, IngestResult::plus)))
        .reduce(IngestResult.EMPTY, IngestResult::plus);
  }

  /**
   * A strict post reaches no pipeline unless every reader can read all of it (each through its own
   * pointers): else 422, naming what each could not read. A strict body is one batch, which each
   * reader then takes whole or, should its definition change in between, refuses whole.
   */
  private Mono<Void> readableByAll(
      String stream, List<PipelineDefinition> readers, List<EventTexts> batches) {
    return streams
        .deliver(
            readers,
            runtime ->
                eventReaders
                    .on(Mono.fromRunnable(() -> batches.forEach(runtime::checkReadable)))
                    .thenReturn(true))
        .doOnNext(checks -> StreamAnswer.refuseUnreadable(stream, checks))
        .then();
  }

  @PostMapping(path = "/{stream}/watermark", consumes = MediaType.APPLICATION_JSON_VALUE)
  Mono<ResponseEntity<JsonNode>> watermark(
      @PathVariable String stream, @RequestBody byte[] body, ServerWebExchange exchange) {
    WatermarkRequest req = WatermarkRequest.of(requestJson.parse(body));
    String traceparent = IngestSpan.of(exchange).traceparent();
    return permits.admit(
        readers(stream)
            .flatMap(
                readers -> streams.deliver(readers, runtime -> req.applyTo(runtime, traceparent)))
            .map(
                outcomes ->
                    StreamAnswer.of(
                        stream,
                        HttpStatus.OK,
                        outcomes,
                        json -> json,
                        name -> null,
                        problems.retryAfterSeconds())));
  }

  /** The pipelines reading the stream, once the caller is known to be allowed to reach them all. */
  private Mono<List<PipelineDefinition>> readers(String stream) {
    return streams
        .readers(stream)
        .flatMap(
            readers ->
                readers.isEmpty()
                    ? Mono.error(new StreamNotFoundException(stream))
                    : producers
                        .check(stream, readers.stream().map(PipelineDefinition::name).toList())
                        .thenReturn(readers));
  }
}
