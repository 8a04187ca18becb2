package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MeanAggregateTest {

  private final MeanAggregate mean = new MeanAggregate();

  @Test
  void meanOfNumbers() {
    assertThat(Element.extract(mean, List.of(Element.number(1, 0), Element.number(2, 0))))
        .isEqualTo(1.5);
    assertThat(Element.extract(mean, List.of(Element.number(2, 0), Element.number(4, 0))))
        .isEqualTo(3L);
  }

  @Test
  void emptyIsNullWithAZeroPartial() {
    assertThat(mean.extract(mean.create())).isNull();
    assertThat(mean.partial(mean.create())).isEqualTo(Map.of("sum", 0L, "count", 0L));
  }

  @Test
  void partialIsSumAndCountInThatOrder() {
    MeanAggregate.SumAndCount acc =
        Element.fold(mean, List.of(Element.number(1.5, 0), Element.number(3, 0)));
    assertThat(Outputs.asMap(mean.partial(acc)))
        .containsExactly(Map.entry("sum", 4.5), Map.entry("count", 2L));
  }

  @Test
  void mergeWeighsByCount() {
    MeanAggregate.SumAndCount into = Element.fold(mean, List.of(Element.number(10, 0)));
    mean.merge(
        into,
        Element.fold(
            mean, List.of(Element.number(1, 0), Element.number(1, 0), Element.number(1, 0))));
    assertThat(mean.extract(into)).isEqualTo(3.25);
  }

  @Test
  void isNotAdditive() {
    assertThat(mean.type()).isEqualTo("mean");
    assertThat(mean.additive()).isFalse();
    assertThat(mean.needsNumber()).isTrue();
  }
}
