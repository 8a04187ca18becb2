package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SumAggregateTest {

  private final SumAggregate sum = new SumAggregate();

  @Test
  void sumOfIntegersIsALong() {
    List<Element> elements = IntStream.range(0, 10).mapToObj(i -> Element.number(i, i)).toList();
    assertThat(Element.extract(sum, elements)).isEqualTo(45L);
  }

  @Test
  void sumOfFractionsIsADouble() {
    assertThat(Element.extract(sum, List.of(Element.number(1.5, 0), Element.number(0.25, 0))))
        .isEqualTo(1.75);
  }

  @Test
  void emptyIsZero() {
    assertThat(sum.extract(sum.create())).isEqualTo(0L);
  }

  @Test
  void mergeOfArbitraryDoublesMatchesOneAccumulator() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 200; trial++) {
      List<Element> elements = new ArrayList<>();
      for (int i = random.nextInt(1, 300); i > 0; i--) {
        elements.add(Element.number(random.nextDouble(-1e6, 1e6), 0));
      }
      double whole = ((Number) Element.extract(sum, elements)).doubleValue();
      AccumulatorCell pieces = Element.foldInRandomPieces(sum, elements, random);
      assertThat(((Number) sum.extract(pieces)).doubleValue()).isCloseTo(whole, within(1e-6));
    }
  }

  @Test
  void isAdditiveAndNeedsANumber() {
    assertThat(sum.type()).isEqualTo("sum");
    assertThat(sum.additive()).isTrue();
    assertThat(sum.needsNumber()).isTrue();
    assertThat(sum.usesPayload()).isFalse();
  }
}
