package io.eventide.api;

import io.eventide.core.IngestResult;
import io.eventide.core.Rejection;
import io.eventide.core.Rejections;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The answer to an event post, and what a failed one says it applied: the counts, how many events
 * were refused, and the first of them by position, so that a producer learns which and why without
 * reading the dead letters.
 */
final class IngestAnswer {
  private IngestAnswer() {}

  static ObjectNode json(IngestResult result) {
    ObjectNode out = result.toJson();
    out.put("rejectedTotal", result.rejectedTotal());
    out.set("rejected", listed(result.rejections()));
    return out;
  }

  static ArrayNode listed(Rejections rejections) {
    ArrayNode listed = JsonNodeFactory.instance.arrayNode();
    for (Rejection r : rejections.listed()) {
      listed.add(r.toJson());
    }
    return listed;
  }

  /**
   * A boolean query parameter: {@code true}, {@code false} or left out (false); anything else is
   * refused naming the parameter, rather than read as false.
   */
  static boolean flag(String parameter, String value) {
    if (value == null || value.equals("false")) {
      return false;
    }
    if (value.equals("true")) {
      return true;
    }
    throw new InvalidInputException(
        List.of(new Violation(parameter, "must be true or false (got '" + value + "')")));
  }
}
