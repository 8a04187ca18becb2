package io.eventide.pipeline;

import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.NamedAggregates;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  private final JsonPointer[] key;
  private final JsonPointer timestamp;
  private final JsonPointer id;
  private final JsonPointer source;
  private final EventExpression filter;
  private final boolean anyPayload;
  private final boolean anyVolume;
  private final boolean anyExpression;

  /**
   * Where one lane's value comes from and what it must be.
   *
   * @param name the named aggregate the lane feeds, or null for a single aggregate
   * @param value the pointer to the value, or null when {@code expr} computes it
   * @param expr the expression that computes the value, or null
   * @param volume pointer to the volume, or null when the aggregate takes none
   * @param needsNumber whether the value must be a finite number
   * @param usesPayload whether the value is passed on as plain Java objects
   */
  public record Lane(
      String name,
      String value,
      EventExpression expr,
      String volume,
      boolean needsNumber,
      boolean usesPayload) {
    /** A lane whose value is at a pointer. */
    public static Lane field(
        String name, String value, String volume, boolean needsNumber, boolean usesPayload) {
      return new Lane(name, value, null, volume, needsNumber, usesPayload);
    }
  }

  private record CompiledLane(
      String name,
      String path,
      JsonPointer value,
      EventExpression expr,
      JsonPointer volume,
      boolean needsNumber,
      boolean usesPayload) {}

  private final CompiledLane[] compiled;

  /**
   * @param filter the expression an event must pass, or null
   * @param lanes one per value an event gives the engine, in lane order
   */
  public EventReader(EventPointers pointers, EventExpression filter, List<Lane> lanes) {
    this.pointers = pointers;
    this.key = pointers.key().stream().map(JsonPointer::compile).toArray(JsonPointer[]::new);
    this.timestamp = JsonPointer.compile(pointers.timestamp());
    this.id = JsonPointer.compile(pointers.id());
    this.source = JsonPointer.compile(pointers.source());
    this.filter = filter;
    this.compiled =
        lanes.stream()
            .map(
                l ->
                    new CompiledLane(
                        l.name(),
                        l.value(),
                        l.value() == null ? null : JsonPointer.compile(l.value()),
                        l.expr(),
                        l.volume() == null ? null : JsonPointer.compile(l.volume()),
                        l.needsNumber(),
                        l.usesPayload()))
            .toArray(CompiledLane[]::new);
    this.anyPayload = lanes.stream().anyMatch(Lane::usesPayload);
    this.anyVolume = lanes.stream().anyMatch(l -> l.volume() != null);
    this.anyExpression = filter != null || lanes.stream().anyMatch(l -> l.expr() != null);
  }

  /**
   * The reader of a definition: one lane from the value pointer for a single aggregate, one per
   * named aggregate from its field or expression.
   */
  public static EventReader of(PipelineDefinition definition, Aggregate<?> aggregate) {
    List<Lane> lanes = new ArrayList<>();
    if (aggregate instanceof NamedAggregates named) {
      for (int i = 0; i < named.size(); i++) {
        NamedAggregate a = definition.aggregates().get(i);
        Aggregate<?> part = named.part(i);
        String volume = a.aggregate().volume();
        if (a.input() instanceof AggregateInput.Computed c) {
          lanes.add(
              new Lane(a.name(), null, c.expr(), volume, part.needsNumber(), part.usesPayload()));
        } else {
          String field =
              a.input() instanceof AggregateInput.Field f
                  ? f.pointer()
                  : definition.event().value();
          lanes.add(Lane.field(a.name(), field, volume, part.needsNumber(), part.usesPayload()));
        }
      }
    } else {
      lanes.add(
          Lane.field(
              null,
              definition.event().value(),
              definition.aggregate().volume(),
              aggregate.needsNumber(),
              aggregate.usesPayload()));
    }
    return new EventReader(definition.event(), definition.filter(), lanes);
  }

  public EventReadResult read(JsonNode event) {
    if (!event.isObject()) {
      return new InvalidEvent("", "must be a JSON object");
    }
    // The filter comes first: an event it drops is of no interest, readable or not.
    Map<String, Object> cel = anyExpression ? CelEvent.of(event) : null;
    if (filter != null) {
      try {
        if (!filter.test(cel)) {
          return FilteredEvent.INSTANCE;
        }
      } catch (EventExpression.EvaluationException e) {
        return new InvalidEvent("", "the filter failed: " + e.getMessage());
      }
    }
    String keyPath = pointers.key().get(0);
    String eventKey;
    if (key.length == 1) {
      JsonNode keyNode = present(event.at(key[0]));
      String problem = keyValueProblem(keyNode);
      if (problem != null) {
        return new InvalidEvent(keyPath, problem);
      }
      eventKey = keyNode.asString();
      String keyProblem = keyProblem(eventKey);
      if (keyProblem != null) {
        return new InvalidEvent(keyPath, keyProblem);
      }
    } else {
      String[] parts = new String[key.length];
      for (int i = 0; i < key.length; i++) {
        JsonNode keyNode = present(event.at(key[i]));
        String problem = keyValueProblem(keyNode);
        if (problem == null) {
          parts[i] = keyNode.asString();
          problem = textProblem(parts[i], MAX_KEY_LENGTH);
        }
        if (problem != null) {
          return new InvalidEvent(pointers.key().get(i), problem);
        }
      }
      eventKey = KeyFields.join(parts);
      if (eventKey.length() > MAX_KEY_LENGTH) {
        return new InvalidEvent(
            keyPath,
            "the composite key must be at most "
                + MAX_KEY_LENGTH
                + " characters (got "
                + eventKey.length()
                + ")");
      }
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
    double[] values = new double[compiled.length];
    Object[] payloads = anyPayload ? new Object[compiled.length] : null;
    double[] volumes = anyVolume ? new double[compiled.length] : null;
    for (int i = 0; i < compiled.length; i++) {
      InvalidEvent invalid = readLane(i, event, cel, values, payloads, volumes);
      if (invalid != null) {
        return invalid;
      }
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
        eventKey,
        time,
        values,
        payloads,
        volumes,
        eventId,
        sourceNode == null ? null : sourceNode.stringValue());
  }

  /** Reads lane {@code i} into the arrays; an invalid event when its value cannot be had. */
  private InvalidEvent readLane(
      int i,
      JsonNode event,
      Map<String, Object> cel,
      double[] values,
      Object[] payloads,
      double[] volumes) {
    CompiledLane lane = compiled[i];
    if (lane.expr() != null) {
      try {
        values[i] = lane.expr().number(cel);
      } catch (EventExpression.EvaluationException e) {
        return new InvalidEvent(
            "", "the expr of aggregates." + lane.name() + " failed: " + e.getMessage());
      }
      if (lane.usesPayload()) {
        payloads[i] = values[i];
      }
    } else {
      JsonNode valueNode = present(event.at(lane.value()));
      if (lane.needsNumber() && !isFiniteNumber(valueNode)) {
        return new InvalidEvent(
            lane.path(), valueNode == null ? "is required" : "must be a finite number");
      }
      values[i] = valueNode != null && valueNode.isNumber() ? valueNode.doubleValue() : Double.NaN;
      if (lane.usesPayload() && valueNode != null) {
        payloads[i] = PlainValues.fromJson(valueNode);
      }
    }
    if (volumes != null) {
      JsonNode volumeNode = lane.volume() == null ? null : present(event.at(lane.volume()));
      if (volumeNode != null && !isFiniteNumber(volumeNode)) {
        return new InvalidEvent(lane.volume().toString(), "must be a finite number");
      }
      volumes[i] = volumeNode == null ? Double.NaN : volumeNode.doubleValue();
    }
    return null;
  }

  private static String keyValueProblem(JsonNode keyNode) {
    if (keyNode == null) {
      return "is required";
    }
    if (!keyNode.isString() && !keyNode.isNumber()) {
      return "must be a string or a number";
    }
    return null;
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
