package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExtremumAggregateTest {

  private static final List<Element> ELEMENTS =
      List.of(Element.number(3, 0), Element.number(-2.5, 1), Element.number(7, 2));

  @Test
  void minAndMaxOfNumbers() {
    assertThat(Element.extract(ExtremumAggregate.min(), ELEMENTS)).isEqualTo(-2.5);
    assertThat(Element.extract(ExtremumAggregate.max(), ELEMENTS)).isEqualTo(7L);
  }

  @Test
  void emptyIsNull() {
    ExtremumAggregate min = ExtremumAggregate.min();
    ExtremumAggregate max = ExtremumAggregate.max();
    assertThat(min.extract(min.create())).isNull();
    assertThat(max.extract(max.create())).isNull();
  }

  @Test
  void mergingAnEmptyAccumulatorChangesNothing() {
    ExtremumAggregate max = ExtremumAggregate.max();
    ExtremumAggregate.Extremum acc = Element.fold(max, List.of(Element.number(-5, 0)));
    max.merge(acc, max.create());
    assertThat(max.extract(acc)).isEqualTo(-5L);

    ExtremumAggregate.Extremum empty = max.create();
    max.merge(empty, acc);
    assertThat(max.extract(empty)).isEqualTo(-5L);
  }

  @Test
  void typesAndFlags() {
    assertThat(ExtremumAggregate.min().type()).isEqualTo("min");
    assertThat(ExtremumAggregate.max().type()).isEqualTo("max");
    assertThat(ExtremumAggregate.max().needsNumber()).isTrue();
    assertThat(ExtremumAggregate.max().additive()).isFalse();
  }
}
