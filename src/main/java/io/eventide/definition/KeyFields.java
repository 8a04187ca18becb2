package io.eventide.definition;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The fields that make an event's key. One pointer is a plain key, as it always was. Several make a
 * composite key: pane records show it as an object of the fields (named by each pointer's last
 * segment, values as strings), and everywhere else (the engine, Kafka record keys, Redis, the
 * {@code ?key=} filter) it has one string form: the values in pointer order joined by {@code |},
 * each with {@code \} and {@code |} escaped by a backslash. {@code ["/region", "/endpoint"]} over
 * {@code {"region": "eu", "endpoint": "/pay|now"}} is {@code eu|/pay\|now}.
 *
 * @param pointers the fields' JSON pointers, one or more
 */
public record KeyFields(List<String> pointers) {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final char SEPARATOR = '|';
  private static final char ESCAPE = '\\';

  public KeyFields {
    pointers = List.copyOf(pointers);
  }

  public boolean composite() {
    return pointers.size() > 1;
  }

  /** The name of field {@code i} in a composite key's object: its pointer's last segment. */
  public String name(int i) {
    return JsonPointer.compile(pointers.get(i)).last().getMatchingProperty();
  }

  /** The string form of a composite key's values, in pointer order. */
  public static String join(String[] values) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        out.append(SEPARATOR);
      }
      String v = values[i];
      for (int c = 0; c < v.length(); c++) {
        char ch = v.charAt(c);
        if (ch == SEPARATOR || ch == ESCAPE) {
          out.append(ESCAPE);
        }
        out.append(ch);
      }
    }
    return out.toString();
  }

  /** The values of a key in string form, the inverse of {@link #join}. */
  public static List<String> split(String key) {
    List<String> values = new ArrayList<>();
    StringBuilder value = new StringBuilder();
    for (int c = 0; c < key.length(); c++) {
      char ch = key.charAt(c);
      if (ch == ESCAPE && c + 1 < key.length()) {
        value.append(key.charAt(++c));
      } else if (ch == SEPARATOR) {
        values.add(value.toString());
        value.setLength(0);
      } else {
        value.append(ch);
      }
    }
    values.add(value.toString());
    return values;
  }

  /** The key as a pane record shows it: the string, or the object of a composite key's fields. */
  public JsonNode render(String key) {
    if (!composite()) {
      return StringNode.valueOf(key);
    }
    List<String> values = split(key);
    ObjectNode out = JSON.objectNode();
    for (int i = 0; i < pointers.size(); i++) {
      out.put(name(i), i < values.size() ? values.get(i) : null);
    }
    return out;
  }

  /** Writes the key as {@link #render} would show it, without building the tree. */
  public void write(JsonGenerator json, String key) {
    if (!composite()) {
      json.writeString(key);
      return;
    }
    List<String> values = split(key);
    json.writeStartObject();
    for (int i = 0; i < pointers.size(); i++) {
      json.writeName(name(i));
      json.writeString(i < values.size() ? values.get(i) : null);
    }
    json.writeEndObject();
  }
}
