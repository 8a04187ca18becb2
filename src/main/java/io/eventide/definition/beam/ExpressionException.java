package io.eventide.definition.beam;

/** Something wrong at one place of an expression; {@link BeamExpression} adds the quote. */
final class ExpressionException extends RuntimeException {
  private final int at;
  private final String hint;

  ExpressionException(int at, String problem) {
    this(at, problem, null);
  }

  /**
   * @param hint what would fit instead, shown below the quote so that a long list of names does not
   *     push the quote out of sight; or null
   */
  ExpressionException(int at, String problem, String hint) {
    super(problem, null, false, false);
    this.at = at;
    this.hint = hint;
  }

  int at() {
    return at;
  }

  String hint() {
    return hint;
  }
}
