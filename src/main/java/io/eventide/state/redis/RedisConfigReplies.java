package io.eventide.state.redis;

import java.util.Properties;

/** Reads what {@code CONFIG GET <name>} answered. */
final class RedisConfigReplies {
  private RedisConfigReplies() {}

  /** The value of {@code name} in the reply, "" if it has none. */
  static String value(Properties reply, String name) {
    // Redis answers name and value; clients differ in how they key the pair.
    String value = reply.getProperty(name);
    return value != null
        ? value
        : reply.values().stream().findFirst().map(String::valueOf).orElse("");
  }
}
