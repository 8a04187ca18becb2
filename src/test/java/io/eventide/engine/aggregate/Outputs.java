package io.eventide.engine.aggregate;

import java.util.List;
import java.util.Map;

/** Typed views of aggregate outputs, which the interface returns as plain objects. */
final class Outputs {

  private Outputs() {}

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object output) {
    return (Map<String, Object>) output;
  }

  @SuppressWarnings("unchecked")
  static List<Object> asList(Object output) {
    return (List<Object>) output;
  }
}
