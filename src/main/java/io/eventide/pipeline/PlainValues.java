package io.eventide.pipeline;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Converts between JSON trees and the plain Java values the engine deals in (Map, List, String,
 * Number, Boolean, null), so that the engine never sees a JSON library.
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
