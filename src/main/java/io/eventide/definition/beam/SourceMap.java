package io.eventide.definition.beam;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Where in the expression each part of a translated tree came from, so that a violation the tree
 * readers report by JSON pointer can point at a column instead. Nodes are told apart by identity:
 * two equal sub-trees may come from different places.
 */
final class SourceMap {
  private final Map<JsonNode, Integer> nodes = new IdentityHashMap<>();
  private final Map<JsonNode, Map<String, Integer>> fields = new IdentityHashMap<>();

  /** Records where {@code node} starts, unless it was recorded before (and modified since). */
  void node(JsonNode node, int at) {
    nodes.putIfAbsent(node, at);
  }

  void field(JsonNode parent, String field, int at) {
    fields.computeIfAbsent(parent, p -> new HashMap<>()).put(field, at);
  }

  /** The offset of the deepest recorded part on the way from {@code root} along {@code pointer}. */
  int locate(JsonNode root, String pointer) {
    int at = nodes.getOrDefault(root, 0);
    JsonNode node = root;
    for (String segment : pointer.isEmpty() ? new String[0] : pointer.substring(1).split("/")) {
      String name = segment.replace("~1", "/").replace("~0", "~");
      at = fields.getOrDefault(node, Map.of()).getOrDefault(name, at);
      node = node.isArray() ? node.get(Integer.parseInt(name)) : node.get(name);
      if (node == null) {
        break;
      }
      at = nodes.getOrDefault(node, at);
    }
    return at;
  }
}
