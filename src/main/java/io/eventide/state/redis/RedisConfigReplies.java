package io.eventide.state.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;

/** Reads what {@code CONFIG GET <name>} answered, from one Redis or every node of a cluster. */
final class RedisConfigReplies {
  private RedisConfigReplies() {}

  /**
   * Every value of {@code name} in the reply, empty if it has none: one from a single Redis, one
   * per node from a Redis Cluster, whose reply Spring Data keys {@code <host>:<port>.<name>}. Any
   * node may hold a pipeline's slot, so a check must read them all, not the first.
   */
  static List<String> values(Properties reply, String name) {
    List<String> values = new ArrayList<>();
    reply.forEach(
        (key, value) -> {
          String k = String.valueOf(key);
          if (k.equals(name) || k.endsWith("." + name)) {
            values.add(String.valueOf(value));
          }
        });
    if (values.isEmpty()) {
      // Redis answers name and value; clients differ in how they key the pair.
      reply.values().forEach(v -> values.add(String.valueOf(v)));
    }
    return values;
  }

  /** Whether the reply has a value of {@code name} and every node's passes {@code test}. */
  static boolean everyNode(Properties reply, String name, Predicate<String> test) {
    List<String> values = values(reply, name);
    return !values.isEmpty() && values.stream().allMatch(test);
  }
}
