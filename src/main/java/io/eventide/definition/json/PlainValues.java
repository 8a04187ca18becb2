package io.eventide.definition.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts between JSON and the plain Java values the engine deals in (Map, List, String, Number,
 * Boolean, null), so that the engine never sees a JSON library. A value is written as a tree
 * ({@link #toJson}) or straight to a generator ({@link #write}); both give the same text.
 */
public final class PlainValues {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private PlainValues() {}

  public static Object fromJson(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      node.properties().forEach(e -> map.put(e.getKey(), fromJson(e.getValue())));
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      node.values().forEach(v -> list.add(fromJson(v)));
      return list;
    }
    if (node.isNumber()) {
      return node.numberValue();
    }
    if (node.isString()) {
      return node.stringValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return null;
  }

  public static JsonNode toJson(Object value) {
    if (value == null) {
      return JSON.nullNode();
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = JSON.objectNode();
      map.forEach((k, v) -> object.set(String.valueOf(k), toJson(v)));
      return object;
    }
    if (value instanceof List<?> list) {
      ArrayNode array = JSON.arrayNode(list.size());
      list.forEach(v -> array.add(toJson(v)));
      return array;
    }
    if (value instanceof Boolean b) {
      return JSON.booleanNode(b);
    }
    if (value instanceof Number n) {
      return number(n);
    }
    return JSON.stringNode(value.toString());
  }

  /** Writes a value as {@link #toJson} would show it, without building the tree. */
  public static void write(JsonGenerator json, Object value) {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      // forEach, as toJson iterates: the same order for any map.
      map.forEach(
          (k, v) -> {
            json.writeName(String.valueOf(k));
            write(json, v);
          });
      json.writeEndObject();
    } else if (value instanceof List<?> list) {
      json.writeStartArray();
      for (Object v : list) {
        write(json, v);
      }
      json.writeEndArray();
    } else if (value instanceof Boolean b) {
      json.writeBoolean(b);
    } else if (value instanceof Number n) {
      writeNumber(json, n);
    } else {
      json.writeString(value.toString());
    }
  }

  private static void writeNumber(JsonGenerator json, Number n) {
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      json.writeNumber(n.longValue());
    } else if (n instanceof BigInteger big) {
      json.writeNumber(big);
    } else if (n instanceof BigDecimal decimal) {
      json.writeNumber(decimal);
    } else {
      double d = n.doubleValue();
      if (Double.isFinite(d)) {
        json.writeNumber(d);
      } else {
        json.writeNull();
      }
    }
  }

  private static JsonNode number(Number n) {
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      return JSON.numberNode(n.longValue());
    }
    if (n instanceof BigInteger big) {
      return JSON.numberNode(big);
    }
    if (n instanceof BigDecimal decimal) {
      return JSON.numberNode(decimal);
    }
    // JSON has no NaN or infinity; an aggregate of nothing shows as null rather than as text.
    double d = n.doubleValue();
    return Double.isFinite(d) ? JSON.numberNode(d) : JSON.nullNode();
  }
}
