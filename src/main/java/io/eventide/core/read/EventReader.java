package io.eventide.core.read;

import io.eventide.definition.AggregateInput;
import io.eventide.definition.CelEvent;
import io.eventide.definition.EventExpression;
import io.eventide.definition.EventPointers;
import io.eventide.definition.KeyFields;
import io.eventide.definition.NamedAggregate;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.json.JsonSyntaxError;
import io.eventide.definition.json.PlainValues;
import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.NamedAggregates;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads events through the JSON pointers of a pipeline definition, each from its text in one
 * streaming pass: only the values at the pointers are taken, nothing else of the event is built. An
 * event is read as a tree only when an expression needs all of it.
 */
public final class EventReader {
  /** The most characters a key may have; longer keys make the event invalid. */
  public static final int MAX_KEY_LENGTH = 512;

  /** The most characters an event id may have: every shard remembers its ids. */
  public static final int MAX_ID_LENGTH = 256;

  /** The most characters a watermark source's name may have. */
  public static final int MAX_SOURCE_LENGTH = 256;

  /** Why a text is unreadable, when the parser names no reason. */
  private static final String NOT_JSON = "the line is not JSON";

  /** What a text that is JSON but not an object makes. */
  private static final InvalidEvent NOT_AN_OBJECT = new InvalidEvent("", "must be a JSON object");

  private final EventPointers pointers;
  private final JsonMapper json;
  private final EventExpression filter;
  private final boolean anyPayload;
  private final boolean anyVolume;
  private final boolean anyExpression;
  private final FieldPointers found = new FieldPointers();
  private final int[] key;
  private final int timestamp;
  private final int id;
  private final int source;

  /**
   * Where a CloudEvent's timestamp is when it has no {@code time}: the pointer, inside its data.
   */
  private final String dataTimestampPath;

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

  /** A lane with the slots of its value and volume (-1: none). */
  private record CompiledLane(Lane lane, int value, int volume) {}

  private final CompiledLane[] compiled;

  /**
   * @param filter the expression an event must pass, or null
   * @param lanes one per value an event gives the engine, in lane order
   * @param limits what the text of one event may make the parser do
   */
  public EventReader(
      EventPointers pointers, EventExpression filter, List<Lane> lanes, JsonLimits limits) {
    this.pointers = pointers;
    this.json = limits.eventMapper();
    this.key = pointers.key().stream().mapToInt(k -> found.slot(k, false, true)).toArray();
    this.timestamp = found.slot(pointers.timestamp(), false, false);
    this.id = found.slot(pointers.id(), false, false);
    this.source = found.slot(pointers.source(), false, true);
    this.dataTimestampPath = inData(pointers.timestamp());
    this.filter = filter;
    this.compiled =
        lanes.stream()
            .map(
                l ->
                    new CompiledLane(
                        l,
                        l.value() == null ? -1 : found.slot(l.value(), !l.usesPayload(), false),
                        l.volume() == null ? -1 : found.slot(l.volume(), true, false)))
            .toArray(CompiledLane[]::new);
    found.compile();
    this.anyPayload = lanes.stream().anyMatch(Lane::usesPayload);
    this.anyVolume = lanes.stream().anyMatch(l -> l.volume() != null);
    this.anyExpression = filter != null || lanes.stream().anyMatch(l -> l.expr() != null);
  }

  /**
   * The reader of a definition: one lane from the value pointer for a single aggregate, one per
   * named aggregate from its field or expression.
   */
  public static EventReader of(
      PipelineDefinition definition, Aggregate<?> aggregate, JsonLimits limits) {
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
    return new EventReader(definition.event(), definition.filter(), lanes, limits);
  }

  /**
   * Starts reading {@code texts}, one after another: each text is read as if alone, but texts that
   * lie one after another in the same array with only whitespace between (the lines of an NDJSON
   * batch) share one parser, so that a batch makes one parser rather than one per event. A reading
   * is for one caller: batches read on several threads at once have one each.
   */
  public Reading reading(EventTexts texts) {
    return new Reading(texts);
  }

  /**
   * The reading of one batch of texts, in order. A text the batch holds as a CloudEvent ({@link
   * EventTexts#addCloudEvent}) is read as one: its attributes and the pointers inside its {@code
   * data} in the same pass.
   */
  public final class Reading implements AutoCloseable {
    private final EventTexts texts;
    private final FieldValue[] values = found.values();
    private final PropertyNames names = new PropertyNames();

    /** The attributes of the CloudEvent being read; null until the batch has one. */
    private CloudEventEnvelope envelope;

    /** The parser of the texts up to {@code runEnd}, from byte {@code runStart}; or null. */
    private JsonParser run;

    private int runStart;
    private int runEnd = -1;

    private Reading(EventTexts texts) {
      this.texts = texts;
    }

    /** Reads text {@code i}; texts are read in increasing order. */
    public EventReadResult read(int i) {
      if (anyExpression || found.readsRoot()) {
        return readTree(i);
      }
      if (i > runEnd) {
        startRun(i);
      }
      if (run != null) {
        try {
          EventReadResult read = readInRun(i);
          if (read != null) {
            return read;
          }
        } catch (JacksonException e) {
          // Below: the text alone says whether it, or what came after it, was at fault.
        }
        close();
        runEnd = i;
      }
      return readAlone(i);
    }

    /** The texts from {@code i} on that a parser can read as one sequence of values. */
    private void startRun(int i) {
      close();
      byte[] array = texts.array(i);
      int last = i;
      while (last + 1 < texts.size()
          && texts.array(last + 1) == array
          && whitespace(array, end(last), texts.offset(last + 1))) {
        last++;
      }
      runEnd = last;
      if (last > i) {
        runStart = texts.offset(i);
        run = json.createParser(array, runStart, end(last) - runStart);
      }
    }

    /**
     * Text {@code i} from the run's parser; null when its value does not lie within the text alone
     * (it starts or ends outside it, or something follows it on its line).
     */
    private EventReadResult readInRun(int i) {
      int from = texts.offset(i) - runStart;
      int to = from + texts.length(i);
      JsonToken first = run.nextToken();
      if (first == null || run.currentTokenLocation().getByteOffset() < from) {
        return null;
      }
      if (first == JsonToken.START_OBJECT) {
        find(run, i);
      } else {
        names.reset();
        names.skip(run, first);
      }
      long end = run.currentLocation().getByteOffset();
      if (end > to || !whitespace(texts.array(i), runStart + (int) end, runStart + to)) {
        return null;
      }
      return first == JsonToken.START_OBJECT ? found(i) : NOT_AN_OBJECT;
    }

    private EventReadResult readAlone(int i) {
      try (JsonParser p = json.createParser(texts.array(i), texts.offset(i), texts.length(i))) {
        JsonToken first = p.nextToken();
        if (first != JsonToken.START_OBJECT) {
          names.reset();
          names.skip(p, first);
          return first == null || p.nextToken() == null ? NOT_AN_OBJECT : UnreadableEvent.INSTANCE;
        }
        find(p, i);
        return p.nextToken() == null ? found(i) : UnreadableEvent.INSTANCE;
      } catch (JacksonException e) {
        return UnreadableEvent.INSTANCE;
      }
    }

    /** Reads the object the parser is at the start of, text {@code i}, to its end. */
    private void find(JsonParser p, int i) {
      if (texts.isCloudEvent(i)) {
        envelope().read(p, found, values, names);
      } else {
        found.find(p, values, names);
      }
    }

    /** The event text {@code i} makes, once {@link #find} has read it. */
    private EventReadResult found(int i) {
      if (!texts.isCloudEvent(i)) {
        return event(values, null, null);
      }
      InvalidEvent invalid = cloudEventProblem();
      return invalid != null ? invalid : event(values, null, envelope);
    }

    private CloudEventEnvelope envelope() {
      if (envelope == null) {
        envelope = new CloudEventEnvelope();
      }
      return envelope;
    }

    /**
     * What makes the CloudEvent just read unreadable to the pipeline, or null; data that came as
     * {@code data_base64} is decoded and its fields read here, as data's would have been.
     */
    private InvalidEvent cloudEventProblem() {
      InvalidEvent invalid = envelope.problem();
      if (invalid != null || !envelope.encoded()) {
        return invalid;
      }
      byte[] data;
      try {
        data = envelope.decoded();
      } catch (IllegalArgumentException e) {
        return new InvalidEvent(CloudEventEnvelope.DATA_BASE64_PATH, "must be Base64 (RFC 4648)");
      }
      try (JsonParser p = json.createParser(data)) {
        if (p.nextToken() != JsonToken.START_OBJECT) {
          return new InvalidEvent(CloudEventEnvelope.DATA_BASE64_PATH, "must hold a JSON object");
        }
        found.find(p, values, names);
        return p.nextToken() == null
            ? null
            : new InvalidEvent(CloudEventEnvelope.DATA_BASE64_PATH, "must hold one JSON object");
      } catch (JacksonException e) {
        return new InvalidEvent(
            CloudEventEnvelope.DATA_BASE64_PATH,
            "must hold JSON: " + JsonSyntaxError.of(e).describeInText());
      }
    }

    /** Text {@code i} as a tree, for the expressions that read the whole event. */
    private EventReadResult readTree(int i) {
      JsonNode event;
      try {
        event = json.readTree(texts.array(i), texts.offset(i), texts.length(i));
      } catch (JacksonException e) {
        return UnreadableEvent.INSTANCE;
      }
      if (event == null || !event.isObject()) {
        return NOT_AN_OBJECT;
      }
      CloudEventEnvelope cloudEvent = null;
      if (texts.isCloudEvent(i)) {
        cloudEvent = envelope();
        cloudEvent.read(event);
        InvalidEvent invalid = cloudEventProblem();
        if (invalid != null) {
          return invalid;
        }
        // Checked above: the data is an object, or Base64 of one.
        event =
            cloudEvent.encoded()
                ? json.readTree(cloudEvent.decoded())
                : event.get(CloudEvents.DATA);
      }
      found.find(event, values);
      return event(values, anyExpression ? CelEvent.of(event) : null, cloudEvent);
    }

    private int end(int i) {
      return texts.offset(i) + texts.length(i);
    }

    @Override
    public void close() {
      if (run != null) {
        run.close();
        run = null;
      }
    }
  }

  /**
   * Why text {@code i}, which a reading found unreadable, is not JSON, in Eventide's words: it is
   * parsed again, which only such a text costs.
   */
  public String whyUnreadable(EventTexts texts, int i) {
    return whyUnreadable(() -> json.readTree(texts.array(i), texts.offset(i), texts.length(i)));
  }

  /** Like {@link #whyUnreadable(EventTexts, int)}, for a text kept as a string. */
  public String whyUnreadable(String text) {
    return whyUnreadable(() -> json.readTree(text));
  }

  private static String whyUnreadable(Runnable parse) {
    try {
      parse.run();
    } catch (JacksonException e) {
      return NOT_JSON + ": " + JsonSyntaxError.of(e).describeInText();
    }
    return NOT_JSON;
  }

  /** Whether bytes {@code from} to {@code to} are JSON whitespace only. */
  private static boolean whitespace(byte[] array, int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = array[i];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }

  /**
   * The event from its values, and from its fields as CEL reads them when expressions need it.
   *
   * @param cloudEvent the attributes of the CloudEvent whose data held the values, checked; null
   *     for a plain event. Its {@code id} and {@code source} are the event's; its {@code time}, or
   *     when it has none the timestamp pointer inside its data, the event's time; every pointer's
   *     path is then the one inside its data.
   */
  private EventReadResult event(
      FieldValue[] values, Map<String, Object> cel, CloudEventEnvelope cloudEvent) {
    // The filter comes first: an event it drops is of no interest, readable or not.
    if (filter != null) {
      try {
        if (!filter.test(cel)) {
          return FilteredEvent.INSTANCE;
        }
      } catch (EventExpression.EvaluationException e) {
        return new InvalidEvent("", "the filter failed: " + e.getMessage());
      }
    }
    boolean inData = cloudEvent != null;
    String eventKey;
    if (key.length == 1) {
      FieldValue keyValue = values[key[0]];
      String problem = keyValueProblem(keyValue);
      if (problem != null) {
        return new InvalidEvent(at(pointers.key().get(0), inData), problem);
      }
      eventKey = keyValue.asString();
      String keyProblem = keyProblem(eventKey);
      if (keyProblem != null) {
        return new InvalidEvent(at(pointers.key().get(0), inData), keyProblem);
      }
    } else {
      String[] parts = new String[key.length];
      for (int i = 0; i < key.length; i++) {
        FieldValue keyValue = values[key[i]];
        String problem = keyValueProblem(keyValue);
        if (problem == null) {
          parts[i] = keyValue.asString();
          problem = textProblem(parts[i], MAX_KEY_LENGTH);
        }
        if (problem != null) {
          return new InvalidEvent(at(pointers.key().get(i), inData), problem);
        }
      }
      eventKey = KeyFields.join(parts);
      if (eventKey.length() > MAX_KEY_LENGTH) {
        return new InvalidEvent(
            at(pointers.key().get(0), inData),
            "the composite key must be at most "
                + MAX_KEY_LENGTH
                + " characters (got "
                + eventKey.length()
                + ")");
      }
    }
    String timestampPath;
    long time;
    if (inData && cloudEvent.hasTime()) {
      // Checked with the attributes, before the data was.
      timestampPath = CloudEventEnvelope.TIME_PATH;
      time = cloudEvent.timeMillis();
    } else {
      timestampPath = inData ? dataTimestampPath : pointers.timestamp();
      FieldValue timestampValue = values[timestamp];
      if (!timestampValue.present()) {
        return inData
            ? new InvalidEvent(
                CloudEventEnvelope.TIME_PATH, "is required, or a timestamp at " + timestampPath)
            : new InvalidEvent(timestampPath, "is required");
      }
      try {
        time = timestampValue.timestamp();
      } catch (IllegalArgumentException e) {
        return new InvalidEvent(timestampPath, e.getMessage());
      }
    }
    double[] lanes = new double[compiled.length];
    Object[] payloads = anyPayload ? new Object[compiled.length] : null;
    double[] volumes = anyVolume ? new double[compiled.length] : null;
    for (int i = 0; i < compiled.length; i++) {
      InvalidEvent invalid = readLane(i, values, cel, lanes, payloads, volumes, inData);
      if (invalid != null) {
        return invalid;
      }
    }
    if (inData) {
      return new Event(
          eventKey,
          time,
          lanes,
          payloads,
          volumes,
          cloudEvent.id(),
          cloudEvent.source(),
          timestampPath);
    }
    FieldValue idValue = values[id];
    if (idValue.present() && !idValue.isString() && !idValue.isNumber()) {
      return new InvalidEvent(pointers.id(), "must be a string or a number");
    }
    String eventId = idValue.present() ? idValue.asString() : null;
    String idProblem = eventId == null ? null : idProblem(eventId);
    if (idProblem != null) {
      return new InvalidEvent(pointers.id(), idProblem);
    }
    FieldValue sourceValue = values[source];
    if (sourceValue.present() && !sourceValue.isString()) {
      return new InvalidEvent(pointers.source(), "must be a string");
    }
    String eventSource = sourceValue.present() ? sourceValue.string() : null;
    String sourceProblem = eventSource == null ? null : sourceProblem(eventSource);
    if (sourceProblem != null) {
      return new InvalidEvent(pointers.source(), sourceProblem);
    }
    return new Event(eventKey, time, lanes, payloads, volumes, eventId, eventSource, timestampPath);
  }

  /** The path of {@code pointer}: as it is in a plain event, or inside a CloudEvent's data. */
  private static String at(String pointer, boolean inData) {
    return inData ? inData(pointer) : pointer;
  }

  private static String inData(String pointer) {
    return CloudEventEnvelope.DATA_PATH + pointer;
  }

  /** Reads lane {@code i} into the arrays; an invalid event when its value cannot be had. */
  private InvalidEvent readLane(
      int i,
      FieldValue[] values,
      Map<String, Object> cel,
      double[] lanes,
      Object[] payloads,
      double[] volumes,
      boolean inData) {
    CompiledLane compiledLane = compiled[i];
    Lane lane = compiledLane.lane();
    if (lane.expr() != null) {
      try {
        lanes[i] = lane.expr().number(cel);
      } catch (EventExpression.EvaluationException e) {
        return new InvalidEvent(
            "", "the expr of aggregates." + lane.name() + " failed: " + e.getMessage());
      }
      if (lane.usesPayload()) {
        payloads[i] = lanes[i];
      }
    } else {
      FieldValue value = values[compiledLane.value()];
      if (lane.needsNumber() && !value.isFiniteNumber()) {
        return new InvalidEvent(
            at(lane.value(), inData), value.present() ? "must be a finite number" : "is required");
      }
      lanes[i] = value.isNumber() ? value.doubleValue() : Double.NaN;
      if (lane.usesPayload() && value.present()) {
        payloads[i] = PlainValues.fromJson(value.node());
      }
    }
    if (volumes != null) {
      FieldValue volume = compiledLane.volume() < 0 ? null : values[compiledLane.volume()];
      if (volume != null && volume.present() && !volume.isFiniteNumber()) {
        return new InvalidEvent(at(lane.volume(), inData), "must be a finite number");
      }
      volumes[i] = volume == null || !volume.present() ? Double.NaN : volume.doubleValue();
    }
    return null;
  }

  private static String keyValueProblem(FieldValue keyValue) {
    if (!keyValue.present()) {
      return "is required";
    }
    if (!keyValue.isString() && !keyValue.isNumber()) {
      return "must be a string or a number";
    }
    return null;
  }

  /**
   * Every shard remembers the ids it applied: their length is bounded.
   *
   * @return what is wrong with the id, or null
   */
  static String idProblem(String id) {
    return id.length() > MAX_ID_LENGTH
        ? "must be at most " + MAX_ID_LENGTH + " characters (got " + id.length() + ")"
        : null;
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
}
