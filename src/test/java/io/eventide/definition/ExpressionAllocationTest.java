package io.eventide.definition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * What one evaluation of a CEL expression may build is bounded, so that one event cannot exhaust
 * the heap; reading large fields is not building and stays free.
 */
class ExpressionAllocationTest {
  private static final EventExpressions CEL = EventExpressions.of(PipelineLimits.DEFAULT);

  /** 30 iterations, each concatenating a 200 000-character field with itself. */
  private static final String GROWS =
      "["
          + IntStream.rangeClosed(1, 30).mapToObj(String::valueOf).collect(Collectors.joining(","))
          + "].map(x, event.big + event.big).size() > 0";

  private static Map<String, Object> eventWithBig(int length) {
    return CelEvent.of(JsonNodeFactory.instance.objectNode().put("big", "x".repeat(length)));
  }

  @Test
  void anEvaluationThatBuildsBeyondItsBudgetFailsTheEventNotTheProcess() {
    EventExpression filter = CEL.compile(GROWS, EventExpression.Result.BOOLEAN);
    assertThatThrownBy(() -> filter.test(eventWithBig(200_000)))
        .isInstanceOf(EventExpression.EvaluationException.class)
        .hasMessageContaining("eventide.pipelines.max-expression-allocation");
  }

  @Test
  void theSameExpressionOnSmallValuesStaysWithinIt() throws Exception {
    EventExpression filter = CEL.compile(GROWS, EventExpression.Result.BOOLEAN);
    assertThat(filter.test(eventWithBig(100))).isTrue();
  }

  @Test
  void readingALargeFieldBuildsNothing() {
    EventExpression filter =
        CEL.compile(
            "event.big.size() > 10 && event.big.startsWith('x') && event.big.contains('xx')",
            EventExpression.Result.BOOLEAN);
    assertThatCode(() -> assertThat(filter.test(eventWithBig(900_000))).isTrue())
        .doesNotThrowAnyException();
  }

  @Test
  void eachEvaluationHasABudgetOfItsOwn() throws Exception {
    EventExpression filter =
        CEL.compile("(event.big + event.big).size() > 0", EventExpression.Result.BOOLEAN);
    // 800 000 characters each time: within the budget once, and so every time.
    for (int i = 0; i < 5; i++) {
      assertThat(filter.test(eventWithBig(400_000))).isTrue();
    }
  }

  @Test
  void theLimitIsASetting() {
    PipelineLimits tight = new PipelineLimits(32, 8, 1024, 32, 1000, 10);
    EventExpression filter =
        EventExpressions.of(tight)
            .compile("(event.big + event.big).size() > 0", EventExpression.Result.BOOLEAN);
    assertThatThrownBy(() -> filter.test(eventWithBig(6)))
        .isInstanceOf(EventExpression.EvaluationException.class)
        .hasMessageContaining("beyond 10 characters");
  }
}
