package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.junit.jupiter.api.Test;

class QuantilesAggregateTest {

  /**
   * Twice KLL's single-sided rank error at k 200 (99% confidence): loose enough that the sketch's
   * own randomness cannot fail a test, tight enough to catch a wrong fraction or a lost merge.
   */
  private static final double RANK_TOLERANCE =
      2 * KllDoublesSketch.getNormalizedRankError(200, false);

  private static final Map<String, Double> CHECKED_FRACTIONS =
      Map.of("0.01", 0.01, "0.25", 0.25, "0.5", 0.5, "0.9", 0.9, "0.99", 0.99);

  private final QuantilesAggregate quantiles =
      (QuantilesAggregate)
          Aggregates.create(
              new AggregateSpec("quantiles", List.of(0.0, 0.01, 0.25, 0.5, 0.9, 0.99, 1.0), 0));

  @Test
  void defaultsToMedianP90AndP99() {
    Aggregate<?> defaults = Aggregates.create(AggregateSpec.of("quantiles"));
    List<Element> elements =
        IntStream.rangeClosed(1, 100).mapToObj(i -> Element.number(i, i)).toList();
    assertThat(Outputs.asMap(Element.extract(defaults, elements)))
        .containsExactly(Map.entry("0.5", 50L), Map.entry("0.9", 90L), Map.entry("0.99", 99L));
  }

  @Test
  void fewValuesAreExactAndKeepTheirType() {
    Aggregate<?> median = Aggregates.create(new AggregateSpec("quantiles", List.of(0.5), 0));
    assertThat(Element.extract(median, numbers(3, 1, 2))).isEqualTo(Map.of("0.5", 2L));
    assertThat(Element.extract(median, numbers(0.5, 1.5, 2.5))).isEqualTo(Map.of("0.5", 1.5));
  }

  @Test
  void uniformDistributionWithinRankError() {
    SplittableRandom random = new SplittableRandom(11);
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      values.add((double) i);
    }
    Collections.shuffle(values, new Random(random.nextLong()));
    assertWithinRankError(Element.extract(quantiles, toElements(values)), values);
  }

  @Test
  void normalDistributionWithinRankError() {
    SplittableRandom random = new SplittableRandom(12);
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      values.add(100 + 15 * random.nextGaussian());
    }
    assertWithinRankError(Element.extract(quantiles, toElements(values)), values);
  }

  @Test
  void mergedPiecesStayWithinRankErrorAndKeepMinAndMax() {
    SplittableRandom random = new SplittableRandom(13);
    for (int trial = 0; trial < 20; trial++) {
      List<Double> values = new ArrayList<>();
      for (int i = random.nextInt(5_000, 30_000); i > 0; i--) {
        values.add(random.nextDouble() < 0.3 ? random.nextGaussian() : random.nextInt(1000));
      }
      QuantilesAggregate.Quantiles acc =
          Element.foldInRandomPieces(quantiles, toElements(values), random);
      Map<String, Object> result = Outputs.asMap(quantiles.extract(acc));
      assertThat(acc.sketch.getN()).isEqualTo(values.size());
      assertThat(result.get("0")).isEqualTo(OutputNumbers.of(Collections.min(values)));
      assertThat(result.get("1")).isEqualTo(OutputNumbers.of(Collections.max(values)));
      assertWithinRankError(result, values);
    }
  }

  @Test
  void emptyHasNullQuantilesAndNoSketch() {
    QuantilesAggregate.Quantiles acc = quantiles.create();
    quantiles.merge(acc, quantiles.create());
    assertThat(acc.sketch).isNull();
    Map<String, Object> nulls = new LinkedHashMap<>();
    for (String label : List.of("0", "0.01", "0.25", "0.5", "0.9", "0.99", "1")) {
      nulls.put(label, null);
    }
    assertThat(quantiles.extract(acc)).isEqualTo(nulls);
    assertThat(heapify(quantiles.partial(acc)).isEmpty()).isTrue();
  }

  @Test
  void partialDeserializesToTheSameSketch() {
    SplittableRandom random = new SplittableRandom(14);
    QuantilesAggregate.Quantiles acc = quantiles.create();
    for (int i = 0; i < 50_000; i++) {
      quantiles.add(acc, random.nextDouble(), null, Double.NaN, i);
    }
    KllDoublesSketch sketch = heapify(quantiles.partial(acc));
    double[] ranks = {0.1, 0.5, 0.9};
    assertThat(sketch.getN()).isEqualTo(50_000);
    assertThat(sketch.getK()).isEqualTo(200);
    assertThat(sketch.getQuantiles(ranks)).isEqualTo(acc.sketch.getQuantiles(ranks));
  }

  @Test
  void sketchSizeSetsK() {
    QuantilesAggregate small =
        (QuantilesAggregate) Aggregates.create(new AggregateSpec("quantiles", List.of(), 50));
    QuantilesAggregate.Quantiles acc = Element.fold(small, numbers(1, 2, 3));
    assertThat(heapify(small.partial(acc)).getK()).isEqualTo(50);
  }

  @Test
  void labelsArePlainDecimalsInTheConfiguredOrder() {
    Aggregate<?> odd =
        Aggregates.create(new AggregateSpec("quantiles", List.of(0.999, 0.0001, 1.0, 0.5), 0));
    assertThat(Outputs.asMap(Element.extract(odd, numbers(1))).keySet())
        .containsExactly("0.999", "0.0001", "1", "0.5");
  }

  @Test
  void needsNumbers() {
    assertThat(quantiles.type()).isEqualTo("quantiles");
    assertThat(quantiles.needsNumber()).isTrue();
    assertThat(quantiles.usesPayload()).isFalse();
    assertThat(quantiles.additive()).isFalse();
  }

  private static void assertWithinRankError(Object result, List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    Map<String, Object> quantileByLabel = Outputs.asMap(result);
    for (Map.Entry<String, Double> checked : CHECKED_FRACTIONS.entrySet()) {
      String label = checked.getKey();
      double fraction = checked.getValue();
      double quantile = ((Number) quantileByLabel.get(label)).doubleValue();
      double rank = rankOf(sorted, quantile);
      assertThat(rank)
          .as("rank of the %s quantile", label)
          .isBetween(fraction - RANK_TOLERANCE, fraction + RANK_TOLERANCE);
    }
  }

  /**
   * The fraction of values at or below {@code quantile}: the rank KLL's INCLUSIVE search aims at.
   */
  private static double rankOf(double[] sorted, double quantile) {
    int index = Arrays.binarySearch(sorted, quantile);
    if (index < 0) {
      return (double) (-index - 1) / sorted.length;
    }
    while (index + 1 < sorted.length && sorted[index + 1] == quantile) {
      index++;
    }
    return (double) (index + 1) / sorted.length;
  }

  private static List<Element> numbers(double... values) {
    return Arrays.stream(values).mapToObj(v -> Element.number(v, 0)).toList();
  }

  private static List<Element> toElements(List<Double> values) {
    return values.stream().map(v -> Element.number(v, 0)).toList();
  }

  private static KllDoublesSketch heapify(Object partial) {
    return KllDoublesSketch.heapify(Memory.wrap(Base64.getDecoder().decode((String) partial)));
  }
}
