package io.eventide.api;

import io.eventide.core.read.CloudEvents;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;

/**
 * How the body of an event post carries its events, as its {@code Content-Type} and headers say
 * (the CloudEvents HTTP binding's rule: the content type first, then the {@code ce-} headers).
 */
enum EventBodyFormat {
  /** One event, an object, or a JSON array of events. */
  JSON("the body must be an event or an array of events"),
  /** One event per line, applied in batches as it streams in. */
  NDJSON(null),
  /** One CloudEvent in the JSON event format: {@code application/cloudevents+json}. */
  CLOUD_EVENT(
      "an "
          + CloudEvents.STRUCTURED
          + " body must be one CloudEvent, a JSON object; send several as "
          + CloudEvents.BATCH),
  /** A JSON array of CloudEvents: {@code application/cloudevents-batch+json}. */
  CLOUD_EVENT_BATCH("an " + CloudEvents.BATCH + " body must be a JSON array of CloudEvents"),
  /** One CloudEvent whose attributes are {@code ce-} headers and whose data is the body. */
  CLOUD_EVENT_BINARY(null);

  /** The header that makes a post a binary-mode CloudEvent. */
  static final String SPEC_VERSION_HEADER = "ce-specversion";

  /** What a body read whole must be, said when it is not; null for a body read otherwise. */
  private final String shape;

  EventBodyFormat(String shape) {
    this.shape = shape;
  }

  /** The media types of a body's own, besides a binary-mode CloudEvent's data. */
  private static final List<MediaType> TYPES =
      Stream.of(
              MediaType.APPLICATION_JSON_VALUE,
              EventBodies.NDJSON,
              CloudEvents.STRUCTURED,
              CloudEvents.BATCH)
          .map(MediaType::parseMediaType)
          .toList();

  /**
   * The format of a post with these headers.
   *
   * @throws UnsupportedMediaTypeStatusException (415) for another content type without {@code
   *     ce-specversion}
   */
  static EventBodyFormat of(HttpHeaders headers) {
    MediaType type = headers.getContentType();
    String essence = type == null ? null : type.getType() + "/" + type.getSubtype();
    if (CloudEvents.is(essence, CloudEvents.STRUCTURED)) {
      return CLOUD_EVENT;
    }
    if (CloudEvents.is(essence, CloudEvents.BATCH)) {
      return CLOUD_EVENT_BATCH;
    }
    if (headers.containsHeader(SPEC_VERSION_HEADER)) {
      return CLOUD_EVENT_BINARY;
    }
    if (CloudEvents.is(essence, EventBodies.NDJSON)) {
      return NDJSON;
    }
    if (CloudEvents.is(essence, MediaType.APPLICATION_JSON_VALUE)) {
      return JSON;
    }
    throw new UnsupportedMediaTypeStatusException(type, TYPES, HttpMethod.POST);
  }

  /** Whether the body's root may be a JSON object: one event. */
  boolean takesObject() {
    return this != CLOUD_EVENT_BATCH;
  }

  /** Whether the body's root may be a JSON array of events. */
  boolean takesArray() {
    return this != CLOUD_EVENT;
  }

  /** Whether the events are CloudEvents in the JSON event format. */
  boolean cloudEvents() {
    return this == CLOUD_EVENT || this == CLOUD_EVENT_BATCH;
  }

  String shape() {
    return shape;
  }
}
