package io.eventide.definition.beam;

import io.eventide.definition.beam.Dialect.Kind;
import io.eventide.definition.beam.Expression.Argument;
import io.eventide.definition.beam.Expression.Arguments;
import io.eventide.definition.beam.Expression.Chain;
import io.eventide.definition.beam.Expression.MethodCall;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Translates a syntax tree into the JSON form in one dialect, recording where each part came from.
 * The forms of the dialect call back into the helpers here to read their arguments.
 */
final class Translator {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private final Dialect dialect;
  private final Predicate<JsonNode> singleFire;
  private final SourceMap sources = new SourceMap();

  Translator(Dialect dialect, Predicate<JsonNode> singleFire) {
    this.dialect = dialect;
    this.singleFire = singleFire;
  }

  SourceMap sources() {
    return sources;
  }

  /** The JSON of {@code expression}, which must be a form of {@code kind} and its methods. */
  ObjectNode translate(Expression expression, Kind kind) {
    if (!(expression instanceof Chain chain)) {
      throw new ExpressionException(
          expression.at(), "expected a " + kind.label() + ", found " + expression.describe());
    }
    Dialect.Form form = dialect.form(kind, chain.key());
    if (form == null) {
      throw new ExpressionException(
          chain.at(),
          "unknown " + kind.label() + " '" + chain.key() + "'",
          "known in " + dialect.name() + ": " + dialect.knownForms(kind));
    }
    if (chain.arguments() == null) {
      throw new ExpressionException(
          chain.at() + chain.key().length(),
          "expected '(' after " + chain.key() + ", which takes " + takes(form.params()));
    }
    ObjectNode node = form.build().build(bind(chain.key(), form.params(), chain), this);
    sources.node(node, chain.at());
    for (MethodCall call : chain.methods()) {
      Dialect.Method method = dialect.method(kind, call.name(), node);
      if (method == null) {
        throw new ExpressionException(
            call.at(),
            "unknown method '" + call.name() + "'",
            "known here: " + dialect.knownMethods(kind, node));
      }
      node =
          method
              .modify()
              .apply(node, bind(call.name(), method.params(), call.arguments(), call.at()), this);
      sources.node(node, chain.at());
    }
    form.check().check(node, chain);
    return node;
  }

  ObjectNode node(String type) {
    return JSON.objectNode().put("type", type);
  }

  /** The node of a windowing chain, whose fields are the definition's. */
  ObjectNode settings() {
    return JSON.objectNode();
  }

  /** Sets {@code field} to the trigger {@code expression}. */
  ObjectNode trigger(ObjectNode into, String field, Expression expression) {
    return set(into, field, translate(expression, Kind.TRIGGER), expression);
  }

  /** Sets {@code field} to the window {@code expression}. */
  ObjectNode window(ObjectNode into, String field, Expression expression) {
    return set(into, field, translate(expression, Kind.WINDOW), expression);
  }

  /**
   * Sets {@code field} to the constant that {@code expression} names: one of {@code constants}, by
   * their names, which may carry the optional prefixes of the module where the dialect keeps its
   * names of {@code module}.
   */
  ObjectNode constant(
      ObjectNode into,
      String field,
      Expression expression,
      Map<String, ? extends Enum<?>> constants,
      Kind module) {
    if (expression instanceof Chain c && c.arguments() == null) {
      Enum<?> value = constants.get(c.name());
      if (value == null) {
        value = constants.get(dialect.unprefixed(module, c.name()));
      }
      if (value != null) {
        return constant(into, field, value, expression.at());
      }
    }
    String prefixes = dialect.prefixes(module);
    throw new ExpressionException(
        expression.at(),
        "expected one of "
            + String.join(", ", constants.keySet().stream().sorted().toList())
            + (prefixes.isEmpty() ? "" : " (each " + prefixes + ")")
            + ", found "
            + expression.describe());
  }

  /**
   * Sets {@code field} to {@code value}, read from the expression at {@code at}, named as the JSON
   * form names its constants: in lower case.
   */
  ObjectNode constant(ObjectNode into, String field, Enum<?> value, int at) {
    return text(into, field, value.name().toLowerCase(Locale.ROOT), at);
  }

  ObjectNode triggers(ObjectNode into, String field, List<Expression> expressions) {
    ArrayNode array = JSON.arrayNode();
    expressions.forEach(e -> array.add(translate(e, Kind.TRIGGER)));
    if (!expressions.isEmpty()) {
      sources.field(into, field, expressions.get(0).at());
    }
    into.set(field, array);
    return into;
  }

  /**
   * Refuses the first of {@code expressions} whose translation in {@code triggers} is not
   * single-fire, where the SDK's types take only such triggers.
   *
   * @param refusal why, and what to write instead
   */
  void requireSingleFire(JsonNode triggers, List<Expression> expressions, String refusal) {
    for (int i = 0; i < expressions.size(); i++) {
      if (!singleFire.test(triggers.get(i))) {
        Expression e = expressions.get(i);
        throw new ExpressionException(e.at(), e.describe() + " is not single-fire: " + refusal);
      }
    }
  }

  /** Sets {@code field} to the duration {@code expression}, in ISO-8601 as the JSON form has it. */
  ObjectNode duration(ObjectNode into, String field, Expression expression) {
    return set(into, field, JSON.stringNode(duration(expression).toString()), expression);
  }

  /** Adds the duration {@code expression} to the duration in {@code field}, zero if absent. */
  ObjectNode addDuration(ObjectNode into, String field, Expression expression) {
    JsonNode current = into.get(field);
    Duration sum =
        (current == null ? Duration.ZERO : Duration.parse(current.stringValue()))
            .plus(duration(expression));
    return set(into, field, JSON.stringNode(sum.toString()), expression);
  }

  /** Sets {@code field} to the number {@code expression}; the JSON readers check its range. */
  ObjectNode number(ObjectNode into, String field, Expression expression) {
    BigDecimal value = numeric(expression);
    JsonNode json =
        value.scale() <= 0 && value.abs().compareTo(LONG_MAX) <= 0
            ? JSON.numberNode(value.longValue())
            : JSON.numberNode(value);
    return set(into, field, json, expression);
  }

  /** Sets {@code field} to {@code value}, read from the expression at {@code at}. */
  ObjectNode text(ObjectNode into, String field, String value, int at) {
    into.put(field, value);
    sources.field(into, field, at);
    return into;
  }

  Duration duration(Expression expression) {
    return dialect.duration(expression, this);
  }

  /** A number, or a product of numbers. */
  BigDecimal numeric(Expression expression) {
    if (expression instanceof Expression.Number n) {
      return n.value();
    }
    if (expression instanceof Expression.Product p) {
      BigDecimal product = BigDecimal.ONE;
      for (Expression factor : p.factors()) {
        product = product.multiply(numeric(factor));
      }
      return product;
    }
    throw new ExpressionException(
        expression.at(), "expected a number, found " + expression.describe());
  }

  /** A whole number that fits an int. */
  int integer(Expression expression) {
    try {
      return numeric(expression).intValueExact();
    } catch (ArithmeticException e) {
      throw new ExpressionException(expression.at(), "expected a whole number");
    }
  }

  String string(Expression expression) {
    if (expression instanceof Expression.Text t) {
      return t.value();
    }
    throw new ExpressionException(
        expression.at(), "expected a string, found " + expression.describe());
  }

  /** {@code seconds} as a duration; Python writes durations as seconds. */
  Duration seconds(BigDecimal seconds, int at) {
    return nanos(seconds.multiply(NANOS_PER_SECOND), at);
  }

  Duration nanos(BigDecimal nanos, int at) {
    BigInteger whole;
    try {
      whole = nanos.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw new ExpressionException(at, "must be a whole number of milliseconds");
    }
    if (whole.bitLength() >= Long.SIZE) {
      throw new ExpressionException(at, "is too long a duration");
    }
    return Duration.ofNanos(whole.longValue());
  }

  /** Binds the arguments of a called name to the parameters of its form. */
  BoundArguments bind(String callee, List<Param> params, Chain chain) {
    if (chain.typeArguments() >= 0 && !dialect.typeArguments()) {
      throw new ExpressionException(
          chain.typeArguments(), "unexpected '<': only Java writes type arguments");
    }
    return bind(callee, params, chain.arguments(), chain.at());
  }

  BoundArguments bind(String callee, List<Param> params, Arguments arguments, int at) {
    List<Expression> positional = new ArrayList<>();
    Map<String, Argument> keywords = new LinkedHashMap<>();
    for (Argument argument : arguments.list()) {
      if (argument.keyword() == null) {
        if (!keywords.isEmpty()) {
          throw new ExpressionException(
              argument.at(), "unexpected positional argument after a keyword argument");
        }
        positional.add(argument.value());
      } else if (!dialect.keywordArguments()) {
        throw new ExpressionException(
            argument.at(), "unexpected '" + argument.keyword() + "=': only Python names arguments");
      } else if (keywords.put(argument.keyword(), argument) != null) {
        throw new ExpressionException(
            argument.at(), "argument '" + argument.keyword() + "' given twice");
      }
    }
    Map<String, List<Expression>> values = new HashMap<>();
    int next = 0;
    for (Param param : params) {
      switch (param.arity()) {
        case REST -> {
          values.put(param.name(), List.copyOf(positional.subList(next, positional.size())));
          next = positional.size();
        }
        case SLICE -> {
          if (next == positional.size()) {
            throw missing(callee, params, arguments, at);
          }
          Expression slice = positional.get(next++);
          if (!(slice instanceof Expression.Slice s)) {
            throw new ExpressionException(
                slice.at(), "expected " + param.takes() + ", found " + slice.describe());
          }
          values.put(param.name(), s.items());
        }
        default -> {
          Argument keyword = keywords.remove(param.name());
          if (next < positional.size()) {
            if (keyword != null) {
              throw new ExpressionException(
                  keyword.at(), "argument '" + param.name() + "' given twice");
            }
            values.put(param.name(), List.of(positional.get(next++)));
          } else if (keyword != null) {
            values.put(param.name(), List.of(keyword.value()));
          } else if (param.arity() == Param.Arity.REQUIRED) {
            throw missing(callee, params, arguments, at);
          }
        }
      }
    }
    if (next < positional.size()) {
      throw ExpressionException.signature(
          positional.get(next).at(),
          at,
          "unexpected argument: " + callee + " takes " + takes(params));
    }
    if (!keywords.isEmpty()) {
      Argument unknown = keywords.values().iterator().next();
      throw ExpressionException.signature(
          unknown.at(),
          at,
          "unknown argument '" + unknown.keyword() + "': " + callee + " takes " + takes(params));
    }
    return new BoundArguments(values, at);
  }

  private static ExpressionException missing(
      String callee, List<Param> params, Arguments arguments, int at) {
    return ExpressionException.signature(
        arguments.close(), at, "unexpected ')': " + callee + " takes " + takes(params));
  }

  private static String takes(List<Param> params) {
    if (params.isEmpty()) {
      return "no arguments";
    }
    return params.stream().map(Param::takes).collect(Collectors.joining(", "));
  }

  private ObjectNode set(ObjectNode into, String field, JsonNode value, Expression expression) {
    into.set(field, value);
    sources.field(into, field, expression.at());
    return into;
  }
}
