package io.eventide.definition;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import java.util.Collection;
import java.util.Map;

/**
 * What one evaluation of a CEL expression may build: the characters of the strings, the elements of
 * the lists and the entries of the maps that its operators, functions, literals and comprehensions
 * make, added up. Comprehensions are bounded in iterations, but not the values each iteration
 * builds: a filter that maps over a list and concatenates a large string field would otherwise fill
 * the heap on one event. Reading a field (an identifier, a selection, a constant) builds nothing
 * and costs nothing.
 *
 * <p>The interpreter calls {@link #callback} with every value it computes, so no value is built
 * from values beyond the budget: the largest one is at most about twice it. One budget per thread,
 * reset per evaluation, so that evaluating allocates nothing for the budget itself.
 */
final class AllocationBudget implements CelEvaluationListener {
  private static final ThreadLocal<AllocationBudget> PER_THREAD =
      ThreadLocal.withInitial(AllocationBudget::new);

  private long limit;
  private long used;

  private AllocationBudget() {}

  /** This thread's budget, emptied, for one evaluation of at most {@code limit}. */
  static AllocationBudget start(long limit) {
    AllocationBudget budget = PER_THREAD.get();
    budget.limit = limit;
    budget.used = 0;
    return budget;
  }

  @Override
  public void callback(CelExpr expr, Object value) {
    switch (expr.getKind()) {
      case CALL, LIST, MAP, STRUCT, COMPREHENSION -> spend(size(value));
      default -> {}
    }
  }

  private void spend(long size) {
    used += size;
    if (used > limit) {
      throw new Exceeded(limit);
    }
  }

  private static long size(Object value) {
    if (value instanceof CharSequence s) {
      return s.length();
    }
    if (value instanceof Collection<?> c) {
      return c.size();
    }
    if (value instanceof Map<?, ?> m) {
      return m.size();
    }
    if (value instanceof com.google.protobuf.ByteString b) {
      return b.size();
    }
    return 1;
  }

  /** The evaluation built more than its budget; thrown out of the interpreter to stop it. */
  static final class Exceeded extends RuntimeException {
    Exceeded(long limit) {
      super(
          "builds values beyond "
              + limit
              + " characters, list elements and map entries"
              + " (eventide.pipelines.max-expression-allocation)",
          null,
          false,
          false);
    }
  }
}
