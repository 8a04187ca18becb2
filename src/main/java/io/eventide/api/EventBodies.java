package io.eventide.api;

import io.eventide.core.read.CloudEvents;
import io.eventide.core.read.EventTexts;
import io.eventide.core.read.InvalidEvent;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.runtime.IngestProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * The bodies of event posts, to a pipeline or to a stream, in each {@link EventBodyFormat}: one
 * event or a JSON array of them, NDJSON, or CloudEvents (structured, batched or binary), within
 * {@code eventide.ingest.max-body-size}.
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

  /**
   * The events of a body read whole, in any {@code format} but NDJSON: one event or a JSON array of
   * them, each the slice of the body it is (the body is checked whole in one streaming pass, and
   * each event is read later in its own), or a binary-mode CloudEvent made of the headers and the
   * body. A post that is one CloudEvent (structured or binary) has its required attributes checked
   * here, so that a wrong one refuses the request before anything of it is applied; a batch's
   * CloudEvents are each refused as events by the reader, without their neighbours.
   *
   * @throws MalformedJsonException when the body is not JSON, or not the JSON its format says
   * @throws InvalidInputException naming the required attribute (by its {@code ce-} header in
   *     binary mode, else its JSON pointer) of a post of one CloudEvent that is missing or wrong,
   *     or the element of a CloudEvents batch that is not a JSON object
   */
  EventTexts events(byte[] bytes, EventBodyFormat format, HttpHeaders headers) {
    if (format == EventBodyFormat.CLOUD_EVENT_BINARY) {
      Map<String, String> attributes = CloudEventHeaders.attributes(headers);
      String type = attributes.get(CloudEvents.DATA_CONTENT_TYPE);
      // Data declared JSON must be JSON, as any JSON body; other data the reader refuses by type.
      boolean json = type == null || CloudEvents.isJson(type);
      EventTexts event = new EventTexts(1);
      event.addCloudEvent(
          CloudEvents.fromBinary(
              attributes, json && !requestJson.holdsValue(bytes) ? null : bytes));
      return event;
    }
    EventTexts events = new EventTexts(64);
    boolean cloudEvents = format.cloudEvents();
    // What refuses the request once the body has been found to be JSON; null while nothing does.
    Violation refusal = null;
    try (JsonParser p = requestJson.parser(bytes)) {
      JsonToken root = p.nextToken();
      boolean taken =
          root == JsonToken.START_ARRAY
              ? format.takesArray()
              : root == JsonToken.START_OBJECT && format.takesObject();
      if (taken && root == JsonToken.START_ARRAY) {
        int index = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken(), index++) {
          if (format == EventBodyFormat.CLOUD_EVENT_BATCH
              && t != JsonToken.START_OBJECT
              && refusal == null) {
            refusal = new Violation("/" + index, "must be a CloudEvent, a JSON object");
          }
          event(p, t, bytes, events, cloudEvents);
        }
      } else if (taken && format == EventBodyFormat.CLOUD_EVENT) {
        refusal = cloudEvent(p, bytes, events);
      } else if (taken) {
        event(p, root, bytes, events, false);
      } else {
        p.skipChildren();
      }
      if (p.nextToken() != null) {
        // What comes after the value: the tree parser says what and where.
        requestJson.parse(bytes);
      }
      if (!taken) {
        throw new MalformedJsonException(format.shape());
      }
    } catch (JacksonException e) {
      throw new MalformedJsonException(e);
    }
    if (refusal != null) {
      throw new InvalidInputException(List.of(refusal));
    }
    return events;
  }

  /**
   * The one CloudEvent of a structured body, the parser at its start, as its slice of the body; its
   * required attributes are checked in the same pass, and the first that is missing or wrong is
   * returned (null when none is).
   */
  private static Violation cloudEvent(JsonParser p, byte[] body, EventTexts into) {
    int start = (int) p.currentTokenLocation().getByteOffset();
    InvalidEvent problem = CloudEvents.attributeProblem(p);
    into.addCloudEvent(body, start, (int) p.currentLocation().getByteOffset() - start);
    return problem == null ? null : new Violation(problem.path(), problem.reason());
  }

  /**
   * The value at {@code token}, an event or a CloudEvent: an object or array is its slice of the
   * body; anything else, which is no event, is written out (the reader refuses it like any text
   * that is not an object).
   */
  private static void event(
      JsonParser p, JsonToken token, byte[] body, EventTexts into, boolean cloudEvent) {
    byte[] array = body;
    int start;
    int length;
    if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
      start = (int) p.currentTokenLocation().getByteOffset();
      p.skipChildren();
      length = (int) p.currentLocation().getByteOffset() - start;
    } else {
      array = JsonMapper.shared().writeValueAsBytes(p.readValueAsTree());
      start = 0;
      length = array.length;
    }
    if (cloudEvent) {
      into.addCloudEvent(array, start, length);
    } else {
      into.add(array, start, length);
    }
  }

  /**
   * The batches of an NDJSON body, every batch checked by {@link #ndjsonBatch}.
   *
   * @param whole whether the body is one batch (a strict post), else batches of {@code
   *     eventide.ingest.ndjson-batch-events} lines
   */
  List<EventTexts> ndjson(byte[] bytes, boolean whole) {
    NdjsonBatches cut = whole ? wholeNdjsonBatch() : ndjsonBatches();
    List<EventTexts> batches = new ArrayList<>(cut.take(bytes));
    EventTexts last = cut.finish();
    if (last != null) {
      batches.add(last);
    }
    if (batches.isEmpty()) {
      throw new MalformedJsonException("no line of the body is JSON");
    }
    ndjsonBatch(batches.get(0), true);
    return batches;
  }

  /** Cuts an NDJSON body into batches of {@code eventide.ingest.ndjson-batch-events} lines. */
  NdjsonBatches ndjsonBatches() {
    return new NdjsonBatches(properties.ndjsonBatchEvents());
  }

  /** An NDJSON body as one batch, for a strict post: refused or applied whole. */
  NdjsonBatches wholeNdjsonBatch() {
    return new NdjsonBatches(Integer.MAX_VALUE);
  }

  /**
   * Checks a batch of NDJSON lines: a line that is not JSON becomes an invalid event, unless no
   * line of the body's first batch is JSON, when the body is not NDJSON at all. Lines are parsed as
   * strict UTF-8: a malformed sequence makes its line an invalid event instead of being silently
   * replaced.
   *
   * @param first whether this is the body's first batch
   */
  EventTexts ndjsonBatch(EventTexts batch, boolean first) {
    if (first) {
      String firstProblem = null;
      for (int i = 0; i < batch.size(); i++) {
        String problem = requestJson.whyNotJson(batch.array(i), batch.offset(i), batch.length(i));
        if (problem == null) {
          return batch;
        }
        firstProblem = firstProblem == null ? problem : firstProblem;
      }
      throw new MalformedJsonException(
          "no line of the body is JSON; its first line: " + firstProblem);
    }
    return batch;
  }
}
