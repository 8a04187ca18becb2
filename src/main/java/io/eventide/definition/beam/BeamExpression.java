package io.eventide.definition.beam;

import io.eventide.definition.beam.Dialect.Kind;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * A trigger, a window or a whole windowing chain written as in one of Beam's SDKs (Java, Python or
 * Go), translated to the JSON form of Eventide's definitions. The JSON readers then check it as
 * they check any tree; {@link #locate} turns what they find back into a column of the expression.
 */
public final class BeamExpression {
  /** In this order: the first dialect that reads an expression wins. */
  private static final List<Dialect> DIALECTS =
      List.of(JavaDialect.create(), PythonDialect.create(), GoDialect.create());

  private final String text;
  private final JsonNode tree;
  private final SourceMap sources;

  private BeamExpression(String text, JsonNode tree, SourceMap sources) {
    this.text = text;
    this.tree = tree;
    this.sources = sources;
  }

  /**
   * Translates a trigger expression.
   *
   * @param singleFire whether a trigger tree (in the JSON form) is single-fire, for the positions
   *     where an SDK's types take only such triggers and the JSON form does not: Java's varargs
   *     {@code AfterFirst.of} and {@code AfterAll.of}
   * @throws IllegalArgumentException with a reason fit for a violation, quoting the expression and
   *     pointing at the column
   */
  public static BeamExpression trigger(String text, Predicate<JsonNode> singleFire) {
    return translate(text, Kind.TRIGGER, singleFire);
  }

  /**
   * Translates a window expression.
   *
   * @throws IllegalArgumentException like {@link #trigger}
   */
  public static BeamExpression window(String text) {
    // A window holds no trigger, so no position asks for a single-fire one.
    return translate(text, Kind.WINDOW, tree -> true);
  }

  /**
   * Translates a whole windowing chain ({@code Window.into(…).triggering(…)…}, {@code
   * beam.WindowInto(…)}) into an object holding the fields of a definition that it sets: {@code
   * window}, {@code trigger}, {@code accumulation}, {@code allowedLateness}, {@code
   * timestampCombiner}, {@code closingBehavior} and {@code onTimeBehavior}, each only when the
   * chain sets it.
   *
   * @throws IllegalArgumentException like {@link #trigger}
   */
  public static BeamExpression windowing(String text, Predicate<JsonNode> singleFire) {
    return translate(text, Kind.WINDOWING, singleFire);
  }

  /** The JSON form of the expression. */
  public JsonNode tree() {
    return tree;
  }

  /**
   * A reason for a violation the JSON readers found at {@code pointer} inside {@link #tree},
   * pointing at the part of the expression it came from.
   */
  public String locate(String pointer, String reason) {
    String subject = pointer.isEmpty() ? reason : pointer.substring(1) + " " + reason;
    return quote(text, sources.locate(tree, pointer), subject);
  }

  private static BeamExpression translate(String text, Kind kind, Predicate<JsonNode> singleFire) {
    try {
      Expression expression = ExpressionParser.parse(text);
      return inFirstDialect(text, expression, kind, singleFire);
    } catch (ExpressionException e) {
      String quoted = quote(text, e.at(), e.getMessage());
      throw new IllegalArgumentException(e.hint() == null ? quoted : quoted + "\n" + e.hint(), e);
    }
  }

  /**
   * Tries the dialects that know the outermost name. When none reads the whole expression, the
   * error of the dialect that read furthest into it is the one to show: there the writer's dialect
   * got stuck. Of two that read as far, the one that knows the outermost name as written, not by an
   * optional prefix, is more likely the writer's ({@code beam.WindowInto} is Go's name, and
   * Python's only with a prefix).
   */
  private static BeamExpression inFirstDialect(
      String text, Expression expression, Kind kind, Predicate<JsonNode> singleFire) {
    List<Dialect> candidates =
        DIALECTS.stream()
            .filter(
                d -> !(expression instanceof Expression.Chain c) || d.form(kind, c.key()) != null)
            .toList();
    if (candidates.isEmpty()) {
      throw unknown((Expression.Chain) expression, kind);
    }
    ExpressionException furthest = null;
    boolean furthestAsWritten = false;
    for (Dialect dialect : candidates) {
      Translator translator = new Translator(dialect, singleFire);
      try {
        JsonNode tree = translator.translate(expression, kind);
        return new BeamExpression(text, tree, translator.sources());
      } catch (ExpressionException e) {
        boolean asWritten =
            expression instanceof Expression.Chain c && dialect.knowsAsWritten(kind, c.key());
        if (furthest == null
            || e.understood() > furthest.understood()
            || (e.understood() == furthest.understood() && asWritten && !furthestAsWritten)) {
          furthest = e;
          furthestAsWritten = asWritten;
        }
      }
    }
    throw furthest;
  }

  /**
   * An outermost name no dialect knows; when it is known as another kind, the field that takes it
   * is named too, as a whole chain pasted into {@code window} is a likely slip.
   */
  private static ExpressionException unknown(Expression.Chain chain, Kind kind) {
    String elsewhere =
        Arrays.stream(Kind.values())
            .filter(
                k -> k != kind && DIALECTS.stream().anyMatch(d -> d.form(k, chain.key()) != null))
            .findFirst()
            .map(k -> ": a " + k.label() + " goes in the field '" + k.field() + "'")
            .orElse("");
    return new ExpressionException(
        chain.at(),
        "unknown " + kind.label() + " '" + chain.key() + "'" + elsewhere,
        DIALECTS.stream()
            .map(d -> "known in " + d.name() + ": " + d.knownForms(kind))
            .collect(Collectors.joining("\n")));
  }

  /**
   * {@code problem at column 7: <the line>}, then a caret under the column, so that the reason
   * reads well in a monospaced problem detail.
   */
  private static String quote(String text, int at, String problem) {
    int lineStart = text.lastIndexOf('\n', at - 1) + 1;
    int lineEnd = text.indexOf('\n', at);
    String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd).stripTrailing();
    int column = at - lineStart + 1;
    String where =
        text.indexOf('\n') < 0
            ? "column " + column
            : "line "
                + (text.substring(0, lineStart).chars().filter(c -> c == '\n').count() + 1)
                + ", column "
                + column;
    String head = problem + " at " + where + ": ";
    return head + line + "\n" + " ".repeat(head.length() + column - 1) + "^";
  }
}
