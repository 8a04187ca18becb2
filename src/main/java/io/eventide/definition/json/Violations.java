package io.eventide.definition.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Collects every violation of a request body so that a caller learns about all of them in one round
 * trip instead of fixing one field per attempt.
 */
public final class Violations {
  private final List<Violation> list = new ArrayList<>();

  public void add(String path, String reason) {
    list.add(new Violation(path, reason));
  }

  public List<Violation> list() {
    return Collections.unmodifiableList(list);
  }

  public int size() {
    return list.size();
  }

  /** Throws {@link InvalidInputException} carrying every violation, if there are any. */
  public void throwIfAny() {
    if (!list.isEmpty()) {
      throw new InvalidInputException(list);
    }
  }

  /**
   * The JSON pointer of {@code field} inside the object at {@code parent}, escaped per RFC 6901.
   */
  public static String child(String parent, String field) {
    return parent + "/" + field.replace("~", "~0").replace("/", "~1");
  }

  /** The JSON pointer of array element {@code index} inside the array at {@code parent}. */
  public static String child(String parent, int index) {
    return parent + "/" + index;
  }
}
