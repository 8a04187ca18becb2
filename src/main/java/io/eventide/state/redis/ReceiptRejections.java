package io.eventide.state.redis;

import io.eventide.core.Rejection;
import io.eventide.core.Rejections;
import io.eventide.engine.DropReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The events a receipt says its owner refused, as commit.lua appends them and receipt.lua reads
 * them: a JSON array of {@code [index, path, reason, detail]}, the path null when no field is to
 * blame.
 */
final class ReceiptRejections {
  private ReceiptRejections() {}

  static String json(Rejections rejections) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (Rejection r : rejections.listed()) {
      out.addArray().add(r.index()).add(r.path()).add(r.reason().wireName()).add(r.detail());
    }
    return out.toString();
  }

  /**
   * What one partition's receipt lists, as many as it kept: receipts of several partitions add up
   * to more than one lists, and the request's answer keeps the first of them all.
   */
  static Rejections parse(String stored) {
    JsonNode entries = JsonMapper.shared().readTree(stored);
    List<Rejection> listed = new ArrayList<>(entries.size());
    for (JsonNode e : entries) {
      listed.add(
          new Rejection(
              e.get(0).asInt(),
              e.get(1).isNull() ? null : e.get(1).asString(),
              DropReason.valueOf(e.get(2).asString().toUpperCase(Locale.ROOT)),
              e.get(3).asString()));
    }
    return Rejections.of(Integer.MAX_VALUE, listed);
  }
}
