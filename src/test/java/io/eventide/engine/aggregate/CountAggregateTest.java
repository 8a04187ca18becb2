package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CountAggregateTest {

  private final CountAggregate count = new CountAggregate();

  @Test
  void countsElementsWithoutNumbers() {
    List<Element> elements =
        List.of(Element.payload("a", 1), Element.payload(null, 2), Element.payload("a", 3));
    assertThat(Element.extract(count, elements)).isEqualTo(3L);
  }

  @Test
  void emptyIsZero() {
    assertThat(count.extract(count.create())).isEqualTo(0L);
    assertThat(count.partial(count.create())).isNull();
  }

  @Test
  void mergeAddsCounts() {
    AccumulatorCell into = Element.fold(count, List.of(Element.payload("a", 1)));
    count.merge(
        into, Element.fold(count, List.of(Element.payload("b", 1), Element.payload("c", 2))));
    assertThat(count.extract(into)).isEqualTo(3L);
  }

  @Test
  void isAdditiveAndNeedsNothing() {
    assertThat(count.type()).isEqualTo("count");
    assertThat(count.additive()).isTrue();
    assertThat(count.needsNumber()).isFalse();
    assertThat(count.usesPayload()).isFalse();
  }
}
