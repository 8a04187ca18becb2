package io.eventide.definition.beam;

/**
 * One lexical unit of an expression.
 *
 * @param at the offset of its first character in the expression
 */
record Token(Kind kind, String text, int at) {
  enum Kind {
    NAME,
    NUMBER,
    STRING,
    PUNCTUATION,
    END
  }

  boolean is(String punctuation) {
    return kind == Kind.PUNCTUATION && text.equals(punctuation);
  }

  /** The token as an error message names it. */
  String describe() {
    return switch (kind) {
      case END -> "end of expression";
      case STRING -> "string \"" + text + "\"";
      default -> "'" + text + "'";
    };
  }
}
