package io.eventide.definition.beam;

import io.eventide.definition.beam.Expression.Argument;
import io.eventide.definition.beam.Expression.Arguments;
import io.eventide.definition.beam.Expression.Chain;
import io.eventide.definition.beam.Expression.MethodCall;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive descent over the tokens of an expression:
 *
 * <pre>
 * whole      := expression [';']
 * expression := factor ('*' factor)*
 * factor     := NUMBER | STRING | slice | chain | '(' expression ')'
 * slice      := '[' ']' dotted '{' [expression (',' expression)* [',']] '}'
 * chain      := ['new'] dotted [arguments ('.' NAME arguments)*]
 *             | dotted '.' types NAME arguments ('.' NAME arguments)*
 * dotted     := NAME ('.' NAME)*
 * types      := '<' type (',' type)* '>'
 * type       := '?' [('extends' | 'super') type] | dotted [types] ('[' ']')*
 * arguments  := '(' [argument (',' argument)* [',']] ')'
 * argument   := [NAME '='] expression
 * </pre>
 *
 * <p>A statement's closing {@code ;} is allowed, as a pasted line of Java or Go has one.
 */
final class ExpressionParser {
  /**
   * Far beyond any trigger of 64 nodes; it keeps a hostile expression of nested parentheses from
   * exhausting the stack.
   */
  private static final int MAX_DEPTH = 200;

  private final List<Token> tokens;
  private int position;
  private int depth;

  private ExpressionParser(List<Token> tokens) {
    this.tokens = tokens;
  }

  /**
   * Parses a whole expression; anything after it is an error.
   *
   * @throws ExpressionException at the first token that does not fit
   */
  static Expression parse(String text) {
    ExpressionParser parser = new ExpressionParser(Tokenizer.tokenize(text));
    Expression expression = parser.expression();
    if (parser.peek().is(";")) {
      parser.next();
    }
    Token rest = parser.peek();
    if (rest.kind() != Token.Kind.END) {
      throw new ExpressionException(
          rest.at(), "unexpected " + rest.describe() + " after the end of the expression");
    }
    return expression;
  }

  private Expression expression() {
    Expression first = factor();
    if (!peek().is("*")) {
      return first;
    }
    List<Expression> factors = new ArrayList<>(List.of(first));
    while (peek().is("*")) {
      next();
      factors.add(factor());
    }
    return new Expression.Product(factors, first.at());
  }

  private Expression factor() {
    Token t = next();
    enter(t);
    Expression factor = factorAt(t);
    depth--;
    return factor;
  }

  /** One level deeper at {@code t}; the caller steps back out when done. */
  private void enter(Token t) {
    if (++depth > MAX_DEPTH) {
      throw new ExpressionException(t.at(), "nested more than " + MAX_DEPTH + " levels deep");
    }
  }

  private Expression factorAt(Token t) {
    if (t.kind() == Token.Kind.NUMBER) {
      return new Expression.Number(new BigDecimal(t.text()), t.at());
    }
    if (t.kind() == Token.Kind.STRING) {
      return new Expression.Text(t.text(), t.at());
    }
    if (t.kind() == Token.Kind.NAME) {
      return chain(t);
    }
    if (t.is("[")) {
      return slice(t);
    }
    if (t.is("(")) {
      Expression inner = expression();
      expect(")");
      return inner;
    }
    throw unexpected(t, "a name, a number or a string");
  }

  private Expression chain(Token first) {
    boolean constructor = first.text().equals("new") && peek().kind() == Token.Kind.NAME;
    String name = dotted(constructor ? next() : first);
    int typeArguments = -1;
    if (!constructor && peek().is(".") && tokens.get(position + 1).is("<")) {
      next();
      typeArguments = peek().at();
      types();
      name += "." + expectName().text();
    }
    if (!peek().is("(")) {
      if (constructor || typeArguments >= 0) {
        throw unexpected(peek(), "'('");
      }
      return new Chain(false, name, first.at(), -1, null, List.of());
    }
    Arguments arguments = arguments();
    List<MethodCall> methods = new ArrayList<>();
    while (peek().is(".")) {
      next();
      Token method = expectName();
      methods.add(new MethodCall(method.text(), method.at(), arguments()));
    }
    return new Chain(constructor, name, first.at(), typeArguments, arguments, methods);
  }

  /** A dotted name; a dot before type arguments is left to {@link #chain}. */
  private String dotted(Token first) {
    StringBuilder name = new StringBuilder(first.text());
    while (peek().is(".") && !tokens.get(position + 1).is("<")) {
      next();
      name.append('.').append(expectName().text());
    }
    return name.toString();
  }

  /** Java's type arguments, read only to be skipped. */
  private void types() {
    expect("<");
    type();
    while (peek().is(",")) {
      next();
      type();
    }
    expect(">");
  }

  private void type() {
    Token t = next();
    enter(t);
    if (t.is("?")) {
      if (peek().kind() == Token.Kind.NAME
          && (peek().text().equals("extends") || peek().text().equals("super"))) {
        next();
        type();
      }
    } else if (t.kind() == Token.Kind.NAME) {
      dotted(t);
      if (peek().is("<")) {
        types();
      }
      while (peek().is("[")) {
        next();
        expect("]");
      }
    } else {
      throw unexpected(t, "a type");
    }
    depth--;
  }

  private Arguments arguments() {
    expect("(");
    List<Argument> list = new ArrayList<>();
    while (!peek().is(")")) {
      list.add(argument());
      if (!peek().is(",")) {
        break;
      }
      next();
    }
    return new Arguments(list, expect(")").at());
  }

  private Argument argument() {
    if (peek().kind() == Token.Kind.NAME && tokens.get(position + 1).is("=")) {
      Token keyword = next();
      next();
      return new Argument(keyword.text(), expression(), keyword.at());
    }
    Expression value = expression();
    return new Argument(null, value, value.at());
  }

  private Expression slice(Token open) {
    expect("]");
    String type = dotted(expectName());
    expect("{");
    List<Expression> items = new ArrayList<>();
    while (!peek().is("}")) {
      items.add(expression());
      if (!peek().is(",")) {
        break;
      }
      next();
    }
    expect("}");
    return new Expression.Slice(type, items, open.at());
  }

  private Token expect(String punctuation) {
    Token t = next();
    if (!t.is(punctuation)) {
      throw unexpected(t, "'" + punctuation + "'");
    }
    return t;
  }

  private Token expectName() {
    Token t = next();
    if (t.kind() != Token.Kind.NAME) {
      throw unexpected(t, "a name");
    }
    return t;
  }

  private static ExpressionException unexpected(Token t, String expected) {
    return new ExpressionException(t.at(), "unexpected " + t.describe() + ", expected " + expected);
  }

  private Token peek() {
    return tokens.get(position);
  }

  /** The next token; the end token repeats, so the parser never runs past it. */
  private Token next() {
    Token t = tokens.get(position);
    if (t.kind() != Token.Kind.END) {
      position++;
    }
    return t;
  }
}
