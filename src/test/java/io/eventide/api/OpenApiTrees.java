package io.eventide.api;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAPI documents as JSON trees, normalised so that only differences of content remain, and a
 * readable list of those differences.
 */
final class OpenApiTrees {
  private static final List<String> METHODS =
      List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

  private OpenApiTrees() {}

  /**
   * Removes what legitimately differs between a hand-written document and a generated one: the
   * {@code servers} springdoc derives from the request, path-level parameters (repeated on each
   * operation), parameter order, {@code required: false} (the default), the order of a schema's
   * {@code required} names (a set), and line breaks and indentation inside texts.
   */
  static ObjectNode normalise(JsonNode document) {
    ObjectNode doc = (ObjectNode) document.deepCopy();
    doc.remove("servers");
    JsonNode paths = doc.path("paths");
    for (Map.Entry<String, JsonNode> path : paths.properties()) {
      ObjectNode item = (ObjectNode) path.getValue();
      JsonNode shared = item.remove("parameters");
      for (String method : METHODS) {
        if (item.get(method) instanceof ObjectNode operation) {
          operation.set("parameters", parameters(shared, operation.get("parameters")));
          if (operation.get("parameters").isEmpty()) {
            operation.remove("parameters");
          }
        }
      }
    }
    tidy(doc);
    return doc;
  }

  /** The operation's parameters over the path's, by location and name. */
  private static ArrayNode parameters(JsonNode shared, JsonNode own) {
    List<JsonNode> all = new ArrayList<>();
    if (own != null) {
      own.forEach(all::add);
    }
    if (shared != null) {
      for (JsonNode p : shared) {
        boolean overridden = all.stream().anyMatch(o -> key(o).equals(key(p)));
        if (!overridden) {
          all.add(p);
        }
      }
    }
    all.sort(Comparator.comparing(OpenApiTrees::key));
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    all.forEach(p -> out.add(p.deepCopy()));
    for (JsonNode p : out) {
      if (p instanceof ObjectNode o
          && o.path("required").isBoolean()
          && !o.get("required").asBoolean()) {
        o.remove("required");
      }
    }
    return out;
  }

  private static String key(JsonNode parameter) {
    return parameter.path("in").asString("") + ":" + parameter.path("name").asString("");
  }

  private static void tidy(JsonNode node) {
    if (node instanceof ObjectNode o) {
      for (Map.Entry<String, JsonNode> e : new ArrayList<>(o.properties())) {
        JsonNode v = e.getValue();
        if ((e.getKey().equals("description") || e.getKey().equals("summary")) && v.isString()) {
          o.put(e.getKey(), v.asString().strip().replaceAll("\\s+", " "));
        } else if (e.getKey().equals("required") && v.isArray()) {
          TreeSet<String> names = new TreeSet<>();
          v.forEach(n -> names.add(n.asString()));
          ArrayNode sorted = o.putArray("required");
          names.forEach(sorted::add);
        } else {
          tidy(v);
        }
      }
    } else if (node instanceof ArrayNode a) {
      a.forEach(OpenApiTrees::tidy);
    }
  }

  /** Differences as JSON pointers, one per line. */
  static List<String> differences(JsonNode yaml, JsonNode generated) {
    List<String> out = new ArrayList<>();
    diff("", yaml, generated, out);
    return out;
  }

  private static void diff(String at, JsonNode a, JsonNode b, List<String> out) {
    if (a.isObject() && b.isObject()) {
      TreeSet<String> keys = new TreeSet<>(a.propertyNames());
      keys.addAll(b.propertyNames());
      for (String k : keys) {
        String child = at + "/" + k.replace("~", "~0").replace("/", "~1");
        if (!b.has(k)) {
          out.add("only in openapi.yaml:   " + child);
        } else if (!a.has(k)) {
          out.add("only in /v3/api-docs:   " + child);
        } else {
          diff(child, a.get(k), b.get(k), out);
        }
      }
    } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        diff(at + "/" + i, a.get(i), b.get(i), out);
      }
    } else if (!a.equals(b)) {
      out.add(
          "differs:                "
              + at
              + "\n    openapi.yaml: "
              + a
              + "\n    /v3/api-docs: "
              + b);
    }
  }

  /** Every {@code $ref} of the document that points at nothing in it. */
  static List<String> unresolvedReferences(JsonNode document) {
    List<String> out = new ArrayList<>();
    collectUnresolved(document, document, out);
    return out;
  }

  private static void collectUnresolved(JsonNode root, JsonNode node, List<String> out) {
    if (node.isObject()) {
      JsonNode ref = node.get("$ref");
      if (ref != null && ref.isString()) {
        String r = ref.asString();
        if (!r.startsWith("#/") || root.at(r.substring(1)).isMissingNode()) {
          out.add(r);
        }
      }
    }
    node.forEach(child -> collectUnresolved(root, child, out));
  }
}
