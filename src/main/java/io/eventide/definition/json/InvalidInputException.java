package io.eventide.definition.json;

import java.util.List;

/** A request body broke one or more rules; every broken rule is listed. */
public final class InvalidInputException extends RuntimeException {
  private final transient List<Violation> violations;

  public InvalidInputException(List<Violation> violations) {
    super(violations.size() + " violation(s), first: " + violations.get(0));
    this.violations = List.copyOf(violations);
  }

  public List<Violation> violations() {
    return violations;
  }
}
