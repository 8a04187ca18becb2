package io.eventide.definition.json;

import io.eventide.engine.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Reads a trigger tree, enforcing the rules Beam's Java SDK expresses through its types: early and
 * late firings and the {@code until} of orFinally take only single-fire triggers. The sub-triggers
 * of afterFirst and afterAll may be any trigger, as Beam's {@code List} overloads take them.
 *
 * <p>A node that cannot be read is replaced by {@code never} and reading goes on, so that the rest
 * of the tree is still checked; {@code never} is single-fire, so the stand-in adds no violation of
 * its own.
 */
final class TriggerParser {
  private static final List<String> TYPES =
      List.of(
          "default",
          "afterWatermark",
          "afterProcessingTime",
          "afterCount",
          "repeatedly",
          "afterEach",
          "afterFirst",
          "afterAny",
          "afterAll",
          "orFinally",
          "never");

  /** Trees beyond this size are refused: every node is state kept per window and key. */
  private static final int MAX_NODES = 64;

  private static final String SINGLE_FIRE =
      "must be a single-fire trigger (afterCount, afterProcessingTime, afterWatermark without"
          + " early/late, afterFirst, afterAll or never)";

  private static final Trigger STAND_IN = new Trigger.Never();

  private final Violations violations;

  TriggerParser(Violations violations) {
    this.violations = violations;
  }

  /**
   * Whether {@code node}, a trigger tree, is single-fire. A tree that breaks other rules still gets
   * an answer; reporting those is left to {@link #parse}.
   */
  static boolean isSingleFire(JsonNode node) {
    return new TriggerParser(new Violations()).node(node, "").isOnce();
  }

  /** The trigger at {@code path}, or null after recording violations. */
  Trigger parse(JsonNode node, String path) {
    int before = violations.size();
    int nodes = countObjects(node);
    if (nodes > MAX_NODES) {
      violations.add(path, "must have at most " + MAX_NODES + " nodes (has " + nodes + ")");
    }
    Trigger trigger = node(node, path);
    return violations.size() == before ? trigger : null;
  }

  private static int countObjects(JsonNode node) {
    int n = node.isObject() ? 1 : 0;
    for (JsonNode child : node.values()) {
      n += countObjects(child);
    }
    return n;
  }

  private Trigger node(JsonNode node, String path) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null || f.require("type") == null) {
      return STAND_IN;
    }
    String type = f.oneOf("type", TYPES, null);
    if (type == null) {
      return STAND_IN;
    }
    Trigger trigger =
        switch (type) {
          case "default" -> new Trigger.Default();
          case "afterWatermark" -> afterWatermark(f);
          case "afterProcessingTime" -> afterProcessingTime(f);
          case "afterCount" -> afterCount(f);
          case "repeatedly" -> new Trigger.Repeatedly(child(f, "trigger", false));
          case "afterEach" -> new Trigger.AfterEach(list(f));
          case "afterFirst", "afterAny" -> new Trigger.AfterFirst(list(f));
          case "afterAll" -> new Trigger.AfterAll(list(f));
          case "orFinally" ->
              new Trigger.OrFinally(child(f, "trigger", false), child(f, "until", true));
          case "never" -> new Trigger.Never();
          default -> throw new IllegalStateException("trigger type without a reader: " + type);
        };
    f.rejectUnknown();
    return trigger;
  }

  private Trigger afterWatermark(JsonFields f) {
    JsonNode early = f.get("early");
    JsonNode late = f.get("late");
    return new Trigger.AfterWatermark(
        early == null ? null : singleFire(early, f.pathOf("early")),
        late == null ? null : singleFire(late, f.pathOf("late")));
  }

  private Trigger afterProcessingTime(JsonFields f) {
    Duration delay = f.nonNegativeDuration("delay", Duration.ZERO);
    return new Trigger.AfterProcessingTime(delay == null ? 0 : delay.toMillis());
  }

  private Trigger afterCount(JsonFields f) {
    if (f.require("count") == null) {
      return STAND_IN;
    }
    Long count = f.integer("count", null, 1, Long.MAX_VALUE);
    return count == null ? STAND_IN : new Trigger.AfterCount(count);
  }

  /** The required sub-trigger {@code field}. */
  private Trigger child(JsonFields f, String field, boolean singleFire) {
    JsonNode node = f.require(field);
    if (node == null) {
      return STAND_IN;
    }
    return singleFire ? singleFire(node, f.pathOf(field)) : node(node, f.pathOf(field));
  }

  /** The {@code triggers} array: at least two entries. */
  private List<Trigger> list(JsonFields f) {
    JsonNode array = f.require("triggers");
    if (array == null) {
      return List.of();
    }
    String path = f.pathOf("triggers");
    if (!array.isArray()) {
      violations.add(path, "must be an array of triggers");
      return List.of();
    }
    if (array.size() < 2) {
      violations.add(path, "must hold at least 2 triggers (has " + array.size() + ")");
    }
    List<Trigger> triggers = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      String at = Violations.child(path, i);
      triggers.add(node(array.get(i), at));
    }
    return triggers;
  }

  private Trigger singleFire(JsonNode node, String path) {
    Trigger t = node(node, path);
    if (!t.isOnce()) {
      violations.add(path, SINGLE_FIRE + "; got " + node.get("type").stringValue());
    }
    return t;
  }
}
