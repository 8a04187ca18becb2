package io.eventide.api;

import io.eventide.config.IngestProperties;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The bodies of event posts, to a pipeline or to a stream: one event or a JSON array of them, or
 * NDJSON, within {@code eventide.ingest.max-body-size}.
 */
@Component
class EventBodies {
  static final String NDJSON = "application/x-ndjson";

  private final RequestJson requestJson;
  private final IngestProperties properties;

  EventBodies(RequestJson requestJson, IngestProperties properties) {
    this.requestJson = requestJson;
    this.properties = properties;
  }

  long limit() {
    return properties.maxBodySize().toBytes();
  }

  /** Refuses a body whose declared length is beyond the limit before a byte of it is read. */
  void checkDeclaredLength(ServerHttpRequest request) {
    long declared = request.getHeaders().getContentLength();
    if (declared > limit()) {
      throw new PayloadTooLargeException(
          limit(), "the body is " + declared + " bytes; nothing applied");
    }
  }

  static boolean isNdjson(ServerHttpRequest request) {
    MediaType type = request.getHeaders().getContentType();
    return type != null && NDJSON.equals(type.getType() + "/" + type.getSubtype());
  }

  /** The whole body, refused with 413 past the limit; an empty body is no bytes. */
  Mono<byte[]> bytes(Flux<DataBuffer> body) {
    long limit = limit();
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
        .defaultIfEmpty(new byte[0]);
  }

  /** The events of a JSON body: one object, or an array of them. */
  List<JsonNode> events(byte[] bytes) {
    JsonNode root = requestJson.parse(bytes);
    List<JsonNode> events = new ArrayList<>();
    if (root.isArray()) {
      root.forEach(events::add);
    } else if (root.isObject()) {
      events.add(root);
    } else {
      throw new MalformedJsonException("the body must be an event or an array of events");
    }
    return events;
  }

  /**
   * One batch of NDJSON lines, each cut as ISO-8859-1 so that its bytes come back unchanged and are
   * parsed as strict UTF-8: a malformed sequence makes its line an invalid event instead of being
   * silently replaced.
   *
   * @param first whether this is the body's first batch: if none of its lines is JSON, the body is
   *     not NDJSON at all
   */
  Lines lines(List<String> batch, boolean first) {
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
    if (first && events.isEmpty()) {
      throw new MalformedJsonException("no line of the body is JSON");
    }
    return new Lines(events, unreadable);
  }

  /** A whole NDJSON body, in batches of {@code eventide.ingest.ndjson-batch-events} lines. */
  List<Lines> ndjson(byte[] bytes) {
    List<String> lines = new ArrayList<>();
    for (String line : new String(bytes, StandardCharsets.ISO_8859_1).split("\n")) {
      if (!line.isBlank()) {
        lines.add(line);
      }
    }
    int size = properties.ndjsonBatchEvents();
    List<Lines> batches = new ArrayList<>();
    for (int from = 0; from < lines.size(); from += size) {
      batches.add(lines(lines.subList(from, Math.min(lines.size(), from + size)), from == 0));
    }
    if (batches.isEmpty()) {
      throw new MalformedJsonException("no line of the body is JSON");
    }
    return batches;
  }

  /** A batch of events, with the lines that were not JSON at all (dead-lettered as invalid). */
  record Lines(List<JsonNode> events, List<String> unreadable) {}
}
