package io.eventide.definition;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelSourceLocation;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles the CEL expressions of pipeline definitions within {@link PipelineLimits}: the standard
 * environment and macros, one dynamically typed variable {@code event}, no other declarations, so
 * an expression can read the event and compute, nothing else.
 */
public final class EventExpressions {
  private static final Map<PipelineLimits, EventExpressions> BY_LIMITS = new ConcurrentHashMap<>();

  private static final Set<CelType> NUMBERS =
      Set.of(SimpleType.INT, SimpleType.UINT, SimpleType.DOUBLE, SimpleType.DYN);
  private static final Set<CelType> BOOLEANS = Set.of(SimpleType.BOOL, SimpleType.DYN);

  private final PipelineLimits limits;
  private final Cel cel;

  private EventExpressions(PipelineLimits limits) {
    this.limits = limits;
    CelOptions options =
        CelOptions.current()
            .maxExpressionCodePointSize(limits.maxExpressionLength())
            .maxParseRecursionDepth(limits.maxExpressionDepth())
            .comprehensionMaxIterations(limits.maxExpressionIterations())
            .enableHeterogeneousNumericComparisons(true)
            .build();
    this.cel =
        CelFactory.standardCelBuilder()
            .setOptions(options)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar(CelEvent.VARIABLE, SimpleType.DYN)
            .build();
  }

  /** The compiler for {@code limits}; there is one per distinct configuration. */
  public static EventExpressions of(PipelineLimits limits) {
    return BY_LIMITS.computeIfAbsent(limits, EventExpressions::new);
  }

  /**
   * Compiles {@code text}, which must be able to give {@code result}.
   *
   * @throws IllegalArgumentException saying what is wrong and where (line and column)
   */
  public EventExpression compile(String text, EventExpression.Result result) {
    int length = text.codePointCount(0, text.length());
    if (length > limits.maxExpressionLength()) {
      throw new IllegalArgumentException(
          "must be at most "
              + limits.maxExpressionLength()
              + " characters (eventide.pipelines.max-expression-length; got "
              + length
              + ")");
    }
    if (text.isBlank()) {
      throw new IllegalArgumentException("must be a CEL expression, not blank");
    }
    CelAbstractSyntaxTree ast;
    try {
      CelValidationResult compiled = cel.compile(text);
      ast = compiled.getAst();
    } catch (CelValidationException e) {
      throw new IllegalArgumentException(describe(e));
    }
    CelType type = ast.getResultType();
    if (!(result == EventExpression.Result.BOOLEAN ? BOOLEANS : NUMBERS).contains(type)) {
      throw new IllegalArgumentException(
          "must give " + result.description() + ", but gives " + type.name());
    }
    try {
      return new EventExpression(
          text, result, cel.createProgram(ast), limits.maxExpressionAllocation());
    } catch (CelEvaluationException e) {
      throw new IllegalArgumentException("cannot be planned: " + e.getMessage());
    }
  }

  private String describe(CelValidationException e) {
    CelIssue first = e.getErrors().get(0);
    CelSourceLocation at = first.getSourceLocation();
    String message = first.getMessage();
    if (message.contains("recursion")) {
      message +=
          " (eventide.pipelines.max-expression-depth is " + limits.maxExpressionDepth() + ")";
    }
    if (at.equals(CelSourceLocation.NONE) || at.getLine() < 1) {
      return "does not compile: " + message;
    }
    return "does not compile: at line %d, column %d: %s"
        .formatted(at.getLine(), at.getColumn() + 1, message);
  }
}
