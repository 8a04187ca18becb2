package io.eventide.definition.beam;

import java.util.List;
import java.util.Map;

/**
 * The arguments of one call, by parameter name.
 *
 * @param at the offset of the called name, for errors about the call as a whole
 */
record BoundArguments(Map<String, List<Expression>> values, int at) {
  /** The argument for {@code name}, or null when an optional one was left out. */
  Expression get(String name) {
    List<Expression> list = values.get(name);
    return list == null ? null : list.get(0);
  }

  List<Expression> list(String name) {
    return values.get(name);
  }
}
