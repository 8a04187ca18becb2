package io.eventide.definition;

import dev.cel.common.values.NullValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * An event's JSON as the values CEL reads through the dynamically typed variable {@code event}: a
 * map of whatever fields the event has. Numbers are doubles, as CEL reads JSON ({@code
 * google.protobuf.Value}), so {@code event.bytes / 1024.0} works for any number and comparisons
 * with integer literals ({@code event.status >= 500}) hold across numeric types.
 */
public final class CelEvent {
  /** The variable an expression reads the event from. */
  public static final String VARIABLE = "event";

  private CelEvent() {}

  /** The object's fields as CEL values; callers pass a JSON object. */
  public static Map<String, Object> of(JsonNode object) {
    Map<String, Object> fields = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      fields.put(field.getKey(), value(field.getValue()));
    }
    return fields;
  }

  private static Object value(JsonNode node) {
    if (node.isObject()) {
      return of(node);
    }
    if (node.isArray()) {
      List<Object> items = new ArrayList<>(node.size());
      for (JsonNode item : node) {
        items.add(value(item));
      }
      return items;
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isString()) {
      return node.stringValue();
    }
    return NullValue.NULL_VALUE;
  }
}
