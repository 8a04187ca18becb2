package io.eventide.pipeline;

import io.eventide.engine.aggregate.Aggregate;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;

/** Reads events through the JSON pointers of a pipeline definition. */
public final class EventReader {
  /** The most characters a key may have; longer keys make the event invalid. */
  public static final int MAX_KEY_LENGTH = 512;

  /** The most characters an event id may have: every shard remembers its ids. */
  public static final int MAX_ID_LENGTH = 256;

  /** The most characters a watermark source's name may have. */
  public static final int MAX_SOURCE_LENGTH = 256;

  private final EventPointers pointers;
  private final JsonPointer key;
  private final JsonPointer timestamp;
  private final JsonPointer value;
  private final JsonPointer volume;
  private final JsonPointer id;
  private final JsonPointer source;
  private final boolean needsNumber;
  private final boolean usesPayload;

  /**
   * @param volume pointer to the volume, or null when the aggregate takes none
   * @param needsNumber whether the value must be a finite number
   * @param usesPayload whether the value is passed on as plain Java objects
   */
  public EventReader(
      EventPointers pointers, String volume, boolean needsNumber, boolean usesPayload) {
    this.pointers = pointers;
    this.key = JsonPointer.compile(pointers.key());
    this.timestamp = JsonPointer.compile(pointers.timestamp());
    this.value = JsonPointer.compile(pointers.value());
    this.volume = volume == null ? null : JsonPointer.compile(volume);
    this.id = JsonPointer.compile(pointers.id());
    this.source = JsonPointer.compile(pointers.source());
    this.needsNumber = needsNumber;
    this.usesPayload = usesPayload;
  }

  public static EventReader of(PipelineDefinition definition, Aggregate<?> aggregate) {
    return new EventReader(
        definition.event(),
        definition.aggregate().volume(),
        aggregate.needsNumber(),
        aggregate.usesPayload());
  }

  public EventReadResult read(JsonNode event) {
    if (!event.isObject()) {
      return new InvalidEvent("", "must be a JSON object");
    }
    JsonNode keyNode = present(event.at(key));
    if (keyNode == null) {
      return new InvalidEvent(pointers.key(), "is required");
    }
    if (!keyNode.isString() && !keyNode.isNumber()) {
      return new InvalidEvent(pointers.key(), "must be a string or a number");
    }
    String keyProblem = keyProblem(keyNode.asString());
    if (keyProblem != null) {
      return new InvalidEvent(pointers.key(), keyProblem);
    }
    JsonNode timestampNode = present(event.at(timestamp));
    if (timestampNode == null) {
      return new InvalidEvent(pointers.timestamp(), "is required");
    }
    long time;
    try {
      time = Timestamps.parse(timestampNode);
    } catch (IllegalArgumentException e) {
      return new InvalidEvent(pointers.timestamp(), e.getMessage());
    }
    JsonNode valueNode = present(event.at(value));
    if (needsNumber && !isFiniteNumber(valueNode)) {
      return new InvalidEvent(
          pointers.value(), valueNode == null ? "is required" : "must be a finite number");
    }
    JsonNode volumeNode = volume == null ? null : present(event.at(volume));
    if (volumeNode != null && !isFiniteNumber(volumeNode)) {
      return new InvalidEvent(volume.toString(), "must be a finite number");
    }
    JsonNode idNode = present(event.at(id));
    if (idNode != null && !idNode.isString() && !idNode.isNumber()) {
      return new InvalidEvent(pointers.id(), "must be a string or a number");
    }
    String eventId = idNode == null ? null : idNode.asString();
    if (eventId != null && eventId.length() > MAX_ID_LENGTH) {
      return new InvalidEvent(
          pointers.id(),
          "must be at most " + MAX_ID_LENGTH + " characters (got " + eventId.length() + ")");
    }
    JsonNode sourceNode = present(event.at(source));
    if (sourceNode != null && !sourceNode.isString()) {
      return new InvalidEvent(pointers.source(), "must be a string");
    }
    String sourceProblem = sourceNode == null ? null : sourceProblem(sourceNode.stringValue());
    if (sourceProblem != null) {
      return new InvalidEvent(pointers.source(), sourceProblem);
    }
    return new Event(
        keyNode.asString(),
        time,
        valueNode != null && valueNode.isNumber() ? valueNode.doubleValue() : Double.NaN,
        usesPayload && valueNode != null ? PlainValues.fromJson(valueNode) : null,
        volumeNode == null ? Double.NaN : volumeNode.doubleValue(),
        eventId,
        sourceNode == null ? null : sourceNode.stringValue());
  }

  /**
   * Source names are kept in the watermark tracker, shown by {@code /watermark} and written to
   * durable state on every commit: the same rules as keys, shorter, and never empty.
   *
   * @return what is wrong with the name, or null
   */
  public static String sourceProblem(String source) {
    return source.isEmpty() ? "must not be empty" : textProblem(source, MAX_SOURCE_LENGTH);
  }

  /**
   * Keys end up in logs, SSE frames, Kafka record keys and (later) Redis keys: bound their length
   * and refuse control characters and lone surrogates, which no sink can carry faithfully.
   */
  private static String keyProblem(String key) {
    return textProblem(key, MAX_KEY_LENGTH);
  }

  private static String textProblem(String text, int maxLength) {
    if (text.length() > maxLength) {
      return "must be at most " + maxLength + " characters (got " + text.length() + ")";
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isISOControl(c)) {
        return "must not contain control characters (U+%04X at %d)".formatted((int) c, i);
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return "must be valid Unicode (a lone surrogate at " + i + ")";
      }
    }
    return null;
  }

  /** The node, or null when the pointer found nothing or JSON null. */
  private static JsonNode present(JsonNode node) {
    return node.isMissingNode() || node.isNull() ? null : node;
  }

  private static boolean isFiniteNumber(JsonNode node) {
    return node != null && node.isNumber() && Double.isFinite(node.doubleValue());
  }
}
