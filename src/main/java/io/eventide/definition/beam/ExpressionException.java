package io.eventide.definition.beam;

/** Something wrong at one place of an expression; {@link BeamExpression} adds the quote. */
final class ExpressionException extends RuntimeException {
  private final int at;
  private final String hint;
  private final int understood;

  ExpressionException(int at, String problem) {
    this(at, problem, null);
  }

  /**
   * @param hint what would fit instead, shown below the quote so that a long list of names does not
   *     push the quote out of sight; or null
   */
  ExpressionException(int at, String problem, String hint) {
    this(at, problem, hint, at);
  }

  private ExpressionException(int at, String problem, String hint, int understood) {
    super(problem, null, false, false);
    this.at = at;
    this.hint = hint;
    this.understood = understood;
  }

  /**
   * Arguments that do not fit the signature of the call at {@code call}: the dialect read nothing
   * of them, however far into them the problem shows.
   */
  static ExpressionException signature(int at, int call, String problem) {
    return new ExpressionException(at, problem, null, call);
  }

  int at() {
    return at;
  }

  /**
   * How far the dialect read the expression before it failed, to tell which dialect the writer
   * meant when none reads it all.
   */
  int understood() {
    return understood;
  }

  String hint() {
    return hint;
  }
}
