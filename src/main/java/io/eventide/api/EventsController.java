package io.eventide.api;

import io.eventide.core.IngestResult;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.runtime.PipelineInput;
import io.eventide.runtime.RunningPipelines;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /pipelines/{name}/events}: takes a producer's events, as JSON, NDJSON or CloudEvents
 * ({@link EventBodyFormat}).
 */
@RestController
@RequestMapping(path = "/pipelines", produces = MediaType.APPLICATION_JSON_VALUE)
class EventsController {
  private final DefinedPipelines pipelines;
  private final RunningPipelines runtimes;
  private final EventBodies bodies;
  private final IngestPermits permits;
  private final EventReaders readers;

  EventsController(
      DefinedPipelines pipelines,
      RunningPipelines runtimes,
      EventBodies bodies,
      IngestPermits permits,
      EventReaders readers) {
    this.pipelines = pipelines;
    this.runtimes = runtimes;
    this.bodies = bodies;
    this.permits = permits;
    this.readers = readers;
  }

  /**
   * Takes every content type: the body's format is read from it and the headers ({@link
   * EventBodyFormat}), so that a binary-mode CloudEvent whose data is not JSON is refused as an
   * event, naming its {@code datacontenttype}; any other type is 415.
   */
  @PostMapping(path = "/{name}/events")
  Mono<ResponseEntity<JsonNode>> events(
      @PathVariable String name,
      @RequestParam(name = "wait", required = false) String wait,
      @RequestParam(name = "strict", required = false) String strictParameter,
      ServerWebExchange exchange) {
    ServerHttpRequest request = exchange.getRequest();
    EventBodyFormat format = EventBodyFormat.of(request.getHeaders());
    bodies.checkDeclaredLength(request);
    boolean applied = waitsForApplied(wait);
    Post post =
        new Post(applied, IngestAnswer.flag("strict", strictParameter), IngestSpan.of(exchange));
    Mono<PipelineInput.Applied> answer =
        format == EventBodyFormat.NDJSON
            ? runtimes.using(
                name,
                () -> pipelines.named(name),
                runtime -> ingestNdjson(runtime, request, bodies.limit(), post))
            // The body is in before the pipeline is entered: a slow one holds up no redefinition.
            : bodies
                .bytes(request.getBody())
                .flatMap(
                    bytes ->
                        runtimes.using(
                            name,
                            () -> pipelines.named(name),
                            runtime -> ingestWhole(runtime, request, bytes, format, post)));
    return answer.map(a -> accepted(a, applied));
  }

  /**
   * How a post is taken.
   *
   * @param applied whether the answer waits until the events are applied ({@code ?wait=applied})
   * @param strict whether an event that cannot be read refuses the whole body ({@code
   *     ?strict=true})
   * @param span the post's ingest span, which its batches' commits are children of
   */
  private record Post(boolean applied, boolean strict, IngestSpan span) {}

  private static ResponseEntity<JsonNode> accepted(PipelineInput.Applied answer, boolean applied) {
    ObjectNode body = IngestAnswer.json(answer.counts());
    if (applied) {
      body.put("applied", answer.complete());
    }
    return ResponseEntity.status(HttpStatus.ACCEPTED).body(body);
  }

  /**
   * A body read whole (anything but NDJSON), checked and cut into its events, is applied as one
   * batch: while it is, it holds a permit.
   */
  private Mono<PipelineInput.Applied> ingestWhole(
      PipelineInput runtime,
      ServerHttpRequest request,
      byte[] body,
      EventBodyFormat format,
      Post post) {
    HttpHeaders headers = request.getHeaders();
    return apply(
        Mono.fromFuture(() -> take(runtime, bodies.events(body, format, headers), post)),
        runtime,
        request,
        body.length);
  }

  /**
   * A batch's reading and applying, under a permit: off the event loop unless the batch is small
   * and plain ({@link EventReaders}).
   */
  private <T> Mono<T> apply(
      Mono<T> batch, PipelineInput runtime, ServerHttpRequest request, long bytes) {
    return permits.admit(readers.on(batch, request, runtime.definition(), bytes));
  }

  /** {@code ?wait=applied}, or nothing: the answer comes once the events are durable. */
  private static boolean waitsForApplied(String wait) {
    if (wait == null) {
      return false;
    }
    if (!wait.equals("applied")) {
      throw new InvalidInputException(
          List.of(new Violation("wait", "must be 'applied', or left out")));
    }
    return true;
  }

  private static CompletableFuture<PipelineInput.Applied> take(
      PipelineInput runtime, EventTexts events, Post post) {
    post.span().counted(events.size());
    String traceparent = post.span().traceparent();
    return post.applied()
        ? runtime.postApplied(events, post.strict(), traceparent)
        : runtime
            .post(events, post.strict(), traceparent)
            .thenApply(r -> new PipelineInput.Applied(r, true));
  }

  /**
   * NDJSON is applied in batches as it streams in, so a large upload is never held whole: one batch
   * is applied while at most the next is read. Whatever ends the stream early (the size limit, the
   * store failing) is answered with an {@code applied} that says what the batches before it did;
   * past the size limit the batch being applied then is finished first, so that the figure is
   * exact. A strict post is one batch, read whole (within the size limit), so that an unreadable
   * line refuses all of it. Each batch's rejections are moved to their lines' positions in the
   * body. Only a batch being applied holds a permit, not the reading of the body around it; a body
   * that is too slow ({@code eventide.ingest.body-read-timeout}) ends the stream like the size
   * limit.
   */
  private Mono<PipelineInput.Applied> ingestNdjson(
      PipelineInput runtime, ServerHttpRequest request, long limit, Post post) {
    AtomicLong bytes = new AtomicLong();
    Flux<DataBuffer> counted =
        request
            .getBody()
            .doOnNext(
                b -> {
                  if (bytes.addAndGet(b.readableByteCount()) > limit) {
                    DataBufferUtils.release(b);
                    throw new PayloadTooLargeException(
                        limit, "the NDJSON stream exceeds the limit; it was cut there");
                  }
                });
    AtomicLong batches = new AtomicLong();
    AtomicInteger lines = new AtomicInteger();
    AtomicReference<PipelineInput.Applied> applied =
        new AtomicReference<>(new PipelineInput.Applied(IngestResult.EMPTY, true));
    AtomicLong appliedBatches = new AtomicLong();
    return Flux.defer(
            () -> {
              NdjsonBatches cut =
                  post.strict() ? bodies.wholeNdjsonBatch() : bodies.ndjsonBatches();
              return counted
                  .concatMapIterable(
                      chunk -> {
                        try {
                          return cut.take(chunk);
                        } finally {
                          DataBufferUtils.release(chunk);
                        }
                      },
                      1)
                  .concatWith(Mono.fromSupplier(cut::finish));
            })
        .concatMapDelayError(
            batch -> {
              boolean firstBatch = batches.getAndIncrement() == 0;
              int first = lines.getAndAdd(batch.size());
              return apply(
                      Mono.fromFuture(
                          () -> take(runtime, bodies.ndjsonBatch(batch, firstBatch), post)),
                      runtime,
                      request,
                      batch.byteCount())
                  .map(result -> result.at(first))
                  .doOnNext(
                      result -> {
                        applied.accumulateAndGet(result, PipelineInput.Applied::plus);
                        appliedBatches.incrementAndGet();
                      });
            },
            false,
            1)
        .then(Mono.fromSupplier(applied::get))
        .onErrorMap(
            e ->
                appliedBatches.get() > 0
                    || e instanceof PayloadTooLargeException
                    || e instanceof BodyReadTimeoutException,
            e -> new PartlyAppliedException(applied.get().counts(), e));
  }
}
