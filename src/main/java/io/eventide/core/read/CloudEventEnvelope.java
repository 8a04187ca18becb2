package io.eventide.core.read;

import io.eventide.definition.json.Timestamps;
import java.util.Base64;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;

/**
 * The attributes of the structured CloudEvent being read (JSON event format), reused from event to
 * event by one reading: the envelope's members are taken in the same streaming pass as the
 * pipeline's pointers inside its {@code data} ({@link FieldPointers#findIn}), extension attributes
 * are skipped without being built, and the attributes are checked against the specification once
 * the event is read ({@link #problem()}). An event post that is one CloudEvent has only its
 * attributes read and checked ({@link #readAttributes}, {@link #attributeProblem()}), so that it is
 * refused whole before anything of it is applied.
 */
final class CloudEventEnvelope {
  static final String SPEC_VERSION_PATH = "/specversion";
  static final String ID_PATH = "/id";
  static final String SOURCE_PATH = "/source";
  static final String TYPE_PATH = "/type";
  static final String TIME_PATH = "/time";
  static final String CONTENT_TYPE_PATH = "/" + CloudEvents.DATA_CONTENT_TYPE;
  static final String DATA_PATH = "/" + CloudEvents.DATA;
  static final String DATA_BASE64_PATH = "/" + CloudEvents.DATA_BASE64;

  /** What the event's {@code data} member held. */
  private enum Data {
    /** No member, or JSON null: no data. */
    ABSENT,
    OBJECT,
    /** A string, number, array or boolean: no fields to read. */
    OTHER
  }

  private final FieldValue specVersion = new FieldValue();
  private final FieldValue id = new FieldValue();
  private final FieldValue source = new FieldValue();
  private final FieldValue type = new FieldValue();
  private final FieldValue time = new FieldValue();
  private final FieldValue contentType = new FieldValue();
  private final FieldValue dataBase64 = new FieldValue();
  private Data data = Data.ABSENT;

  /** The {@code time} in epoch milliseconds, once {@link #attributeProblem()} found it valid. */
  private long timeMillis;

  /** {@code data_base64} decoded, once it has been; else null. */
  private byte[] decoded;

  /**
   * Reads the event the parser is at the start of to its end: its attributes here, the pointers'
   * values inside its data into {@code values}, checking every object's names for duplicates.
   */
  void read(JsonParser p, FieldPointers pointers, FieldValue[] values, PropertyNames names) {
    clear();
    FieldPointers.clear(values);
    names.reset();
    names.enter();
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      names.add(p, name);
      JsonToken value = p.nextToken();
      FieldValue attribute = attribute(name);
      if (attribute != null) {
        // Sources and types come back event after event; ids and times do not.
        pointers.read(p, value, attribute, attribute == source || attribute == type);
      } else if (name.equals(CloudEvents.DATA)) {
        data = kind(value);
        pointers.findIn(p, value, values, names);
      } else {
        names.skip(p, value);
      }
    }
    names.exit();
  }

  /** Reads the event from its tree: its attributes here; the caller reads its data. */
  void read(JsonNode event) {
    clear();
    specVersion.set(event.get("specversion"));
    id.set(event.get("id"));
    source.set(event.get("source"));
    type.set(event.get("type"));
    time.set(event.get("time"));
    contentType.set(event.get(CloudEvents.DATA_CONTENT_TYPE));
    dataBase64.set(event.get(CloudEvents.DATA_BASE64));
    JsonNode d = event.get(CloudEvents.DATA);
    data = d == null || d.isNull() ? Data.ABSENT : d.isObject() ? Data.OBJECT : Data.OTHER;
  }

  /**
   * Reads only the attributes of the event the parser is at the start of, to its end: everything
   * else, {@code data} included, is skipped.
   */
  void readAttributes(JsonParser p) {
    clear();
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      FieldValue attribute = attribute(p.currentName());
      JsonToken value = p.nextToken();
      if (attribute != null) {
        attribute.read(p, value, false, null);
      } else {
        p.skipChildren();
      }
    }
  }

  /** Takes the attributes of a binary-mode event, by name; every one is a string. */
  void readAttributes(Map<String, String> attributes) {
    clear();
    attributes.forEach(
        (name, value) -> {
          FieldValue attribute = attribute(name);
          if (attribute != null) {
            attribute.setString(value);
          }
        });
  }

  private void clear() {
    specVersion.clear();
    id.clear();
    source.clear();
    type.clear();
    time.clear();
    contentType.clear();
    dataBase64.clear();
    data = Data.ABSENT;
    decoded = null;
  }

  /** The member of an attribute Eventide reads, or null for any other member. */
  private FieldValue attribute(String name) {
    return switch (name) {
      case "specversion" -> specVersion;
      case "id" -> id;
      case "source" -> source;
      case "type" -> type;
      case "time" -> time;
      case CloudEvents.DATA_CONTENT_TYPE -> contentType;
      case CloudEvents.DATA_BASE64 -> dataBase64;
      default -> null;
    };
  }

  private static Data kind(JsonToken value) {
    return switch (value) {
      case VALUE_NULL -> Data.ABSENT;
      case START_OBJECT -> Data.OBJECT;
      default -> Data.OTHER;
    };
  }

  /**
   * What makes the event no CloudEvent Eventide can read, with the attribute to blame; null when
   * nothing does: its attributes first ({@link #attributeProblem()}), then its data.
   */
  InvalidEvent problem() {
    InvalidEvent invalid = attributeProblem();
    return invalid != null ? invalid : dataProblem();
  }

  /**
   * The first required attribute that is missing or wrong, in the specification's order ({@code
   * specversion}, {@code id}, {@code source}, {@code type}), then a {@code time} that is given but
   * is no RFC 3339 time; null when they are all right. The data is not looked at: a time left out
   * may be in it.
   */
  InvalidEvent attributeProblem() {
    InvalidEvent invalid = required(specVersion, SPEC_VERSION_PATH);
    if (invalid != null) {
      return invalid;
    }
    if (!specVersion.string().equals(CloudEvents.SPEC_VERSION)) {
      return new InvalidEvent(
          SPEC_VERSION_PATH,
          "must be \""
              + CloudEvents.SPEC_VERSION
              + "\", the version Eventide reads (got '"
              + specVersion.string()
              + "')");
    }
    invalid = required(id, ID_PATH);
    if (invalid != null) {
      return invalid;
    }
    String problem = EventReader.idProblem(id.string());
    if (problem != null) {
      return new InvalidEvent(ID_PATH, problem);
    }
    invalid = required(source, SOURCE_PATH);
    if (invalid != null) {
      return invalid;
    }
    problem = EventReader.sourceProblem(source.string());
    if (problem != null) {
      return new InvalidEvent(SOURCE_PATH, problem);
    }
    invalid = required(type, TYPE_PATH);
    return invalid != null ? invalid : timeProblem();
  }

  /** A {@code time} that is given must be an RFC 3339 string; it is parsed here, once. */
  private InvalidEvent timeProblem() {
    if (!time.present()) {
      return null;
    }
    if (!time.isString()) {
      return new InvalidEvent(TIME_PATH, Timestamps.RFC_3339 + ", as a string");
    }
    try {
      timeMillis = Timestamps.parseRfc3339(time.string());
      return null;
    } catch (IllegalArgumentException e) {
      return new InvalidEvent(TIME_PATH, e.getMessage());
    }
  }

  /** A required string attribute's problem: absent, not a string, or empty. */
  private static InvalidEvent required(FieldValue attribute, String path) {
    if (!attribute.present()) {
      return new InvalidEvent(path, "is required");
    }
    if (!attribute.isString()) {
      return new InvalidEvent(path, "must be a string");
    }
    return attribute.string().isEmpty() ? new InvalidEvent(path, "must not be empty") : null;
  }

  /** Whether the data is there, where the pointers can read it: JSON, as an object. */
  private InvalidEvent dataProblem() {
    if (contentType.present()) {
      if (!contentType.isString()) {
        return new InvalidEvent(CONTENT_TYPE_PATH, "must be a string");
      }
      if (!CloudEvents.isJson(contentType.string())) {
        return new InvalidEvent(
            CONTENT_TYPE_PATH,
            "must declare JSON data (application/json, or a type ending in +json) for the"
                + " pipeline to read its fields (got '"
                + contentType.string()
                + "')");
      }
    }
    if (dataBase64.present()) {
      if (data != Data.ABSENT) {
        return new InvalidEvent(DATA_BASE64_PATH, "must not be given with data");
      }
      return dataBase64.isString()
          ? null
          : new InvalidEvent(DATA_BASE64_PATH, "must be a string of Base64");
    }
    return switch (data) {
      case ABSENT ->
          new InvalidEvent(DATA_PATH, "is required: the pipeline reads the event's fields in it");
      case OTHER -> new InvalidEvent(DATA_PATH, "must be a JSON object");
      case OBJECT -> null;
    };
  }

  /** Whether the data came as {@code data_base64} (then read from {@link #decoded()}). */
  boolean encoded() {
    return dataBase64.present();
  }

  /**
   * The bytes of {@code data_base64}.
   *
   * @throws IllegalArgumentException when it is not Base64
   */
  byte[] decoded() {
    if (decoded == null) {
      decoded = Base64.getDecoder().decode(dataBase64.string());
    }
    return decoded;
  }

  String id() {
    return id.string();
  }

  String source() {
    return source.string();
  }

  /** Whether the event has a {@code time}. */
  boolean hasTime() {
    return time.present();
  }

  /** The {@code time} in epoch milliseconds; only once {@link #problem()} found none. */
  long timeMillis() {
    return timeMillis;
  }
}
