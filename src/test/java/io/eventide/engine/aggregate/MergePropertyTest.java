package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * For every exact aggregate (and distinctCount, whose composite estimate depends only on the
 * registers), folding the elements in randomly merged pieces extracts exactly what folding them
 * into one accumulator does. Quantiles are approximate under merge and are checked in {@link
 * QuantilesAggregateTest}.
 */
class MergePropertyTest {

  private static final int TRIALS = 300;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "count",
        "sum",
        "min",
        "max",
        "mean",
        "collect",
        "latest",
        "distinctCount",
        "ohlc"
      })
  void mergedPiecesExtractWhatOneAccumulatorDoes(String type) {
    assertForRandomSplits(type, Aggregate::extract);
  }

  /** Sketch partials are left out: a union serializes differently while estimating the same. */
  @ParameterizedTest
  @ValueSource(strings = {"mean", "latest", "ohlc"})
  void mergedPiecesHaveThePartialOfOneAccumulator(String type) {
    assertForRandomSplits(type, Aggregate::partial);
  }

  private interface Output {
    <A> Object of(Aggregate<A> aggregate, A acc);
  }

  private static void assertForRandomSplits(String type, Output output) {
    Aggregate<?> aggregate = Aggregates.create(AggregateSpec.of(type));
    SplittableRandom random = new SplittableRandom(type.hashCode());
    for (int trial = 0; trial < TRIALS; trial++) {
      assertSplitInvariant(aggregate, randomElements(random), random, output);
    }
  }

  private static <A> void assertSplitInvariant(
      Aggregate<A> aggregate, List<Element> elements, SplittableRandom random, Output output) {
    A whole = Element.fold(aggregate, elements);
    A pieces = Element.foldInRandomPieces(aggregate, elements, random);
    assertThat(output.of(aggregate, pieces))
        .as("%s of %s", aggregate.type(), elements)
        .isEqualTo(output.of(aggregate, whole));
  }

  /**
   * Quarter-integer prices and volumes keep sums exact whatever the order, and a small timestamp
   * range makes ties frequent, which is where open/close/latest are easiest to get wrong.
   */
  private static List<Element> randomElements(SplittableRandom random) {
    int size = random.nextInt(0, random.nextBoolean() ? 8 : 400);
    List<Element> elements = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      double price = random.nextInt(-400, 400) / 4.0;
      double volume = random.nextInt(5) == 0 ? Double.NaN : random.nextInt(0, 40) / 4.0;
      long timestamp = random.nextLong(0, 20);
      Object payload = random.nextBoolean() ? (Object) ("p" + i) : (Object) price;
      elements.add(new Element(price, payload, volume, timestamp));
    }
    return elements;
  }
}
