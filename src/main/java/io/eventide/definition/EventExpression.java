package io.eventide.definition;

import com.google.common.primitives.UnsignedLong;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import java.util.Map;

/**
 * A compiled CEL expression over one event, bound to the variable {@code event}: a pipeline's
 * {@code filter} or an aggregate's {@code expr}. Compiled once, when the definition is read ({@link
 * EventExpressions}); evaluating it has no side effects, its comprehensions are bounded and so is
 * what it builds ({@link AllocationBudget}). Two expressions are equal when their text and result
 * are.
 */
public final class EventExpression {

  /** What an expression must evaluate to. */
  public enum Result {
    BOOLEAN("a boolean"),
    NUMBER("a number");

    private final String description;

    Result(String description) {
      this.description = description;
    }

    public String description() {
      return description;
    }
  }

  private final String text;
  private final Result result;
  private final CelRuntime.Program program;
  private final long maxAllocation;

  EventExpression(String text, Result result, CelRuntime.Program program, long maxAllocation) {
    this.text = text;
    this.result = result;
    this.program = program;
    this.maxAllocation = maxAllocation;
  }

  public String text() {
    return text;
  }

  public Result result() {
    return result;
  }

  /**
   * The filter's verdict on an event given as {@link CelEvent#of CEL values}.
   *
   * @throws EvaluationException when evaluation fails or gives no boolean
   */
  public boolean test(Map<String, Object> event) throws EvaluationException {
    Object value = evaluate(event);
    if (value instanceof Boolean b) {
      return b;
    }
    throw new EvaluationException("gave " + describe(value) + ", not a boolean");
  }

  /**
   * The expression's number for an event given as {@link CelEvent#of CEL values}.
   *
   * @throws EvaluationException when evaluation fails or gives no finite number
   */
  public double number(Map<String, Object> event) throws EvaluationException {
    Object value = evaluate(event);
    double number;
    if (value instanceof Double d) {
      number = d;
    } else if (value instanceof Long l) {
      number = l;
    } else if (value instanceof UnsignedLong u) {
      number = u.doubleValue();
    } else {
      throw new EvaluationException("gave " + describe(value) + ", not a number");
    }
    if (!Double.isFinite(number)) {
      throw new EvaluationException("gave " + number + ", not a finite number");
    }
    return number;
  }

  private Object evaluate(Map<String, Object> event) throws EvaluationException {
    AllocationBudget budget = AllocationBudget.start(maxAllocation);
    try {
      return program.trace(Map.of(CelEvent.VARIABLE, event), budget);
    } catch (CelEvaluationException e) {
      // The interpreter may wrap what the budget threw, or let it through (below).
      if (e.getCause() instanceof AllocationBudget.Exceeded exceeded) {
        throw new EvaluationException(exceeded.getMessage());
      }
      throw new EvaluationException(e.getMessage());
    } catch (AllocationBudget.Exceeded e) {
      throw new EvaluationException(e.getMessage());
    }
  }

  private static String describe(Object value) {
    return value instanceof String ? "a string" : value.getClass().getSimpleName();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EventExpression e && e.text.equals(text) && e.result == result;
  }

  @Override
  public int hashCode() {
    return text.hashCode() * 31 + result.hashCode();
  }

  @Override
  public String toString() {
    return text;
  }

  /** An event the expression could not be evaluated on; the event is invalid, not the batch. */
  public static final class EvaluationException extends Exception {
    EvaluationException(String message) {
      super(message, null, false, false);
    }
  }
}
