package io.eventide.api;

import io.eventide.config.IngestProperties;
import io.eventide.core.IngestResult;
import io.eventide.pipeline.EventReader;
import io.eventide.pipeline.InvalidInputException;
import io.eventide.pipeline.PipelineDefinition;
import io.eventide.pipeline.PipelineRegistry;
import io.eventide.pipeline.Timestamps;
import io.eventide.pipeline.Violation;
import io.eventide.runtime.PipelineRuntime;
import io.eventide.runtime.PipelineRuntimes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.core.ResolvableType;
import org.springframework.core.codec.StringDecoder;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.MimeType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Takes events and explicit watermarks from producers. */
@RestController
@RequestMapping(path = "/pipelines", produces = MediaType.APPLICATION_JSON_VALUE)
class IngestController {
  static final String NDJSON = "application/x-ndjson";

  private final PipelineRegistry registry;
  private final PipelineRuntimes runtimes;
  private final RequestJson requestJson;
  private final IngestProperties properties;
  private final IngestPermits permits;
  private static final MimeType BYTES_AS_CHARS =
      new MimeType("text", "plain", StandardCharsets.ISO_8859_1);
  private final StringDecoder lines = StringDecoder.textPlainOnly(List.of("\n"), true);

  IngestController(
      PipelineRegistry registry,
      PipelineRuntimes runtimes,
      RequestJson requestJson,
      IngestProperties properties) {
    this.registry = registry;
    this.runtimes = runtimes;
    this.requestJson = requestJson;
    this.properties = properties;
    this.permits = new IngestPermits(properties.maxInFlight());
    // A line may be as long as the body may be; the decoder's 256 KB default would answer 500.
    lines.setMaxInMemorySize((int) Math.min(properties.maxBodySize().toBytes(), Integer.MAX_VALUE));
  }

  @PostMapping(
      path = "/{name}/events",
      consumes = {MediaType.APPLICATION_JSON_VALUE, NDJSON})
  Mono<ResponseEntity<JsonNode>> events(@PathVariable String name, ServerHttpRequest request) {
    long limit = properties.maxBodySize().toBytes();
    long declared = request.getHeaders().getContentLength();
    if (declared > limit) {
      return Mono.error(
          new PayloadTooLargeException(
              limit, "the body is " + declared + " bytes; nothing applied"));
    }
    boolean ndjson =
        NDJSON.equals(
            request.getHeaders().getContentType() == null
                ? null
                : request.getHeaders().getContentType().getType()
                    + "/"
                    + request.getHeaders().getContentType().getSubtype());
    return permits
        .admit(
            runtimes.using(
                name,
                () -> definition(name),
                runtime ->
                    ndjson
                        ? ingestNdjson(runtime, request.getBody(), limit)
                        : ingestJson(runtime, request.getBody(), limit)))
        .map(result -> ResponseEntity.status(HttpStatus.ACCEPTED).body(result.toJson()));
  }

  private Mono<IngestResult> ingestJson(
      PipelineRuntime runtime, Flux<DataBuffer> body, long limit) {
    return DataBufferUtils.join(body, (int) Math.min(limit, Integer.MAX_VALUE))
        .onErrorMap(
            DataBufferLimitException.class,
            e -> new PayloadTooLargeException(limit, "the body exceeds the limit; nothing applied"))
        .map(
            buffer -> {
              try {
                byte[] bytes = new byte[buffer.readableByteCount()];
                buffer.read(bytes);
                return bytes;
              } finally {
                DataBufferUtils.release(buffer);
              }
            })
        .defaultIfEmpty(new byte[0])
        .flatMap(
            bytes -> {
              JsonNode root = requestJson.parse(bytes);
              List<JsonNode> events = new ArrayList<>();
              if (root.isArray()) {
                root.forEach(events::add);
              } else if (root.isObject()) {
                events.add(root);
              } else {
                return Mono.error(
                    new MalformedJsonException("the body must be an event or an array of events"));
              }
              return Mono.fromFuture(() -> runtime.ingest(events));
            });
  }

  /**
   * NDJSON is applied in batches as it streams in, so a large upload is never held whole: one batch
   * is applied while at most the next is read. Whatever ends the stream early (the size limit, the
   * store failing) is answered with an {@code applied} that says what the batches before it did;
   * past the size limit the batch being applied then is finished first, so that the figure is
   * exact.
   */
  private Mono<IngestResult> ingestNdjson(
      PipelineRuntime runtime, Flux<DataBuffer> body, long limit) {
    AtomicLong bytes = new AtomicLong();
    Flux<DataBuffer> counted =
        body.doOnNext(
            b -> {
              if (bytes.addAndGet(b.readableByteCount()) > limit) {
                DataBufferUtils.release(b);
                throw new PayloadTooLargeException(
                    limit, "the NDJSON stream exceeds the limit; it was cut there");
              }
            });
    AtomicLong batches = new AtomicLong();
    AtomicReference<IngestResult> applied = new AtomicReference<>(IngestResult.EMPTY);
    AtomicLong appliedBatches = new AtomicLong();
    // Lines are cut as ISO-8859-1, which maps every byte to one char, so that each line's bytes
    // come back unchanged and are parsed as strict UTF-8: a malformed sequence makes its line an
    // invalid event instead of being silently replaced.
    return lines
        .decode(counted, ResolvableType.forClass(String.class), BYTES_AS_CHARS, null)
        .filter(line -> !line.isBlank())
        .buffer(properties.ndjsonBatchEvents())
        .concatMapDelayError(
            batch -> {
              List<JsonNode> events = new ArrayList<>(batch.size());
              List<String> unreadable = new ArrayList<>();
              for (String line : batch) {
                byte[] raw = line.getBytes(StandardCharsets.ISO_8859_1);
                try {
                  events.add(requestJson.parse(raw));
                } catch (MalformedJsonException e) {
                  unreadable.add(new String(raw, StandardCharsets.UTF_8));
                }
              }
              if (batches.getAndIncrement() == 0 && events.isEmpty()) {
                // Nothing in the first batch is JSON: the body is not NDJSON at all.
                return Mono.error(new MalformedJsonException("no line of the body is JSON"));
              }
              return Mono.fromFuture(() -> runtime.ingest(events, unreadable, i -> null))
                  .doOnNext(
                      result -> {
                        applied.accumulateAndGet(result, IngestResult::plus);
                        appliedBatches.incrementAndGet();
                      });
            },
            false,
            1)
        .then(Mono.fromSupplier(applied::get))
        .onErrorMap(
            e -> appliedBatches.get() > 0 || e instanceof PayloadTooLargeException,
            e -> new PartlyAppliedException(applied.get(), e));
  }

  @PostMapping(path = "/{name}/watermark", consumes = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> watermark(@PathVariable String name, @RequestBody byte[] body) {
    JsonNode json = requestJson.parse(body);
    WatermarkRequest req = WatermarkRequest.of(json);
    return permits.admit(watermark(name, req));
  }

  private Mono<JsonNode> watermark(String name, WatermarkRequest req) {
    return runtimes.using(
        name,
        () -> definition(name),
        runtime ->
            Mono.fromFuture(() -> runtime.postWatermark(req.source(), req.watermark()))
                .flatMap(
                    accepted ->
                        Mono.fromFuture(runtime::watermark)
                            .map(
                                view -> {
                                  ObjectNode out = JsonNodeFactory.instance.objectNode();
                                  out.put("accepted", accepted);
                                  if (!accepted) {
                                    out.put(
                                        "reason",
                                        "the watermark would go backwards; it was ignored");
                                  }
                                  out.set("watermark", WatermarkJson.toJson(view));
                                  return out;
                                })));
  }

  private Mono<PipelineDefinition> definition(String name) {
    return registry.find(name).switchIfEmpty(Mono.error(() -> new PipelineNotFoundException(name)));
  }

  /** The body of a watermark post. */
  record WatermarkRequest(String source, long watermark) {
    static WatermarkRequest of(JsonNode json) {
      if (!json.isObject()) {
        throw new MalformedJsonException("the body must be an object");
      }
      JsonNode source = json.get("source");
      if (source != null && !source.isNull() && !source.isString()) {
        throw new InvalidInputException(List.of(new Violation("/source", "must be a string")));
      }
      String sourceProblem =
          source == null || source.isNull() ? null : EventReader.sourceProblem(source.asString());
      if (sourceProblem != null) {
        throw new InvalidInputException(List.of(new Violation("/source", sourceProblem)));
      }
      JsonNode value = json.get("watermark");
      if (value == null || value.isNull()) {
        throw new InvalidInputException(List.of(new Violation("/watermark", "is required")));
      }
      long watermark;
      try {
        watermark = Timestamps.parseWatermark(value);
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException(List.of(new Violation("/watermark", e.getMessage())));
      }
      return new WatermarkRequest(
          source == null || source.isNull() ? null : source.asString(), watermark);
    }
  }
}
