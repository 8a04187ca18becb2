package io.eventide.definition.beam;

import java.math.BigDecimal;
import java.util.List;

/**
 * The syntax tree of an expression, the same for all three SDKs: what a name means is left to the
 * {@link Dialect} that reads the tree.
 */
sealed interface Expression
    permits Expression.Chain,
        Expression.Number,
        Expression.Text,
        Expression.Product,
        Expression.Slice {

  /** The offset of the expression's first character. */
  int at();

  /** What the expression is, for error messages. */
  String describe();

  /**
   * A dotted name, optionally called and followed by method calls: {@code time.Second}, {@code
   * AfterCount(1)}, {@code new GlobalWindows()}, {@code FixedWindows.of(d).withOffset(o)}, {@code
   * Window.<String>into(w).triggering(t)}.
   *
   * @param typeArguments the offset of Java's explicit type arguments before the called name's last
   *     part ({@code <String>} in {@code Window.<String>into}), or -1; the types themselves change
   *     nothing an expression means and are dropped
   * @param arguments null when the name is not called
   */
  record Chain(
      boolean constructor,
      String name,
      int at,
      int typeArguments,
      Arguments arguments,
      List<MethodCall> methods)
      implements Expression {
    /** The name as the vocabularies list it, {@code new GlobalWindows} for a constructor. */
    String key() {
      return constructor ? "new " + name : name;
    }

    @Override
    public String describe() {
      return "'" + key() + (arguments == null ? "'" : "(…)'");
    }
  }

  /** {@code .name(arguments)} after a call. */
  record MethodCall(String name, int at, Arguments arguments) {}

  /**
   * The arguments of a call.
   *
   * @param close the offset of the closing parenthesis
   */
  record Arguments(List<Argument> list, int close) {}

  /** An argument, with its Python keyword or null. */
  record Argument(String keyword, Expression value, int at) {}

  record Number(BigDecimal value, int at) implements Expression {
    @Override
    public String describe() {
      return "the number " + value.toPlainString();
    }
  }

  record Text(String value, int at) implements Expression {
    @Override
    public String describe() {
      return "the string \"" + value + "\"";
    }
  }

  /** {@code a * b * …}, as Python and Go write durations. */
  record Product(List<Expression> factors, int at) implements Expression {
    @Override
    public String describe() {
      return "a product";
    }
  }

  /** A Go slice literal, {@code []trigger.Trigger{a, b}}. */
  record Slice(String type, List<Expression> items, int at) implements Expression {
    @Override
    public String describe() {
      return "a slice of " + type;
    }
  }
}
