package io.eventide.core.read;

import io.eventide.definition.json.Timestamps;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.DoubleNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.StringNode;

/**
 * The value at one of a reader's pointers in one event, read from the event's tokens without a tree
 * for what events mostly carry (strings, integers, numbers that only feed an aggregate); any other
 * value is kept as the tree a parser would have built for it, so that every rule reads the same
 * value either way.
 */
final class FieldValue {
  private enum Kind {
    ABSENT,
    STRING,
    INTEGER,
    NUMBER,
    NODE
  }

  private Kind kind = Kind.ABSENT;
  private String text;
  private long integer;
  private boolean fitsInt;
  private double number;
  private JsonNode node;

  void clear() {
    kind = Kind.ABSENT;
    text = null;
    node = null;
  }

  /**
   * Takes the value the parser is at.
   *
   * @param numberOnly whether only the value's number is read (a lane, a volume), so that a
   *     fraction needs no tree
   * @param repeated where a string that comes back event after event is kept, or null
   */
  void read(JsonParser p, JsonToken token, boolean numberOnly, RepeatedStrings repeated) {
    switch (token) {
      case VALUE_NULL -> kind = Kind.ABSENT;
      case VALUE_STRING -> {
        kind = Kind.STRING;
        text =
            repeated == null
                ? p.getString()
                : repeated.of(p.getStringCharacters(), p.getStringOffset(), p.getStringLength());
      }
      case VALUE_NUMBER_INT -> {
        JsonParser.NumberType type = p.getNumberType();
        if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
          kind = Kind.INTEGER;
          integer = p.getLongValue();
          fitsInt = type == JsonParser.NumberType.INT;
        } else {
          set(p.readValueAsTree());
        }
      }
      case VALUE_NUMBER_FLOAT -> {
        if (numberOnly) {
          kind = Kind.NUMBER;
          number = p.getDoubleValue();
        } else {
          set(p.readValueAsTree());
        }
      }
      default -> set(p.readValueAsTree());
    }
  }

  /** Takes a value found in a tree; a missing node or JSON null is no value. */
  void set(JsonNode found) {
    if (found == null || found.isMissingNode() || found.isNull()) {
      kind = Kind.ABSENT;
    } else if (found.isString()) {
      kind = Kind.STRING;
      text = found.stringValue();
    } else {
      kind = Kind.NODE;
      node = found;
    }
  }

  /** Takes a string value. */
  void setString(String string) {
    kind = Kind.STRING;
    text = string;
  }

  /** Whether there is a value: JSON null counts as none. */
  boolean present() {
    return kind != Kind.ABSENT;
  }

  boolean isString() {
    return kind == Kind.STRING;
  }

  boolean isNumber() {
    return kind == Kind.INTEGER || kind == Kind.NUMBER || (kind == Kind.NODE && node.isNumber());
  }

  boolean isFiniteNumber() {
    return isNumber() && Double.isFinite(doubleValue());
  }

  /** A string's text. */
  String string() {
    return text;
  }

  /** A string's text, or a number written as its tree writes it. */
  String asString() {
    return kind == Kind.STRING ? text : node().asString();
  }

  double doubleValue() {
    return switch (kind) {
      case INTEGER -> integer;
      case NUMBER -> number;
      default -> node.doubleValue();
    };
  }

  /** Epoch milliseconds or an ISO-8601 string, as {@link Timestamps#parse(JsonNode)} reads them. */
  long timestamp() {
    return switch (kind) {
      case INTEGER -> Timestamps.inRange(integer);
      case STRING -> Timestamps.parse(text);
      default -> Timestamps.parse(node());
    };
  }

  /** The value as the tree a parser builds for it. */
  JsonNode node() {
    return switch (kind) {
      case STRING -> StringNode.valueOf(text);
      case INTEGER -> fitsInt ? IntNode.valueOf((int) integer) : LongNode.valueOf(integer);
      case NUMBER -> DoubleNode.valueOf(number);
      default -> node;
    };
  }
}
