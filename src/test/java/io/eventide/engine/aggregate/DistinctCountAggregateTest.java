package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.memory.Memory;
import org.junit.jupiter.api.Test;

class DistinctCountAggregateTest {

  private final DistinctCountAggregate distinct =
      (DistinctCountAggregate) Aggregates.create(AggregateSpec.of("distinctCount"));

  @Test
  void smallCardinalitiesAreExact() {
    List<Element> elements = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 10; i++) {
        elements.add(Element.payload("user-" + i, round));
      }
    }
    assertThat(Element.extract(distinct, elements)).isEqualTo(10L);
  }

  @Test
  void equalNumbersCountOnceWhateverTheirType() {
    List<Element> elements =
        List.of(
            Element.payload(1, 0),
            Element.payload(1L, 0),
            Element.payload(1.0, 0),
            Element.payload(1.0f, 0),
            Element.payload(new BigDecimal("1.00"), 0),
            Element.payload(1.5, 0),
            Element.payload("1", 0));
    assertThat(Element.extract(distinct, elements)).isEqualTo(3L);
  }

  @Test
  void structuredPayloadsCountByTheirText() {
    List<Element> elements =
        List.of(
            Element.payload(Map.of("a", 1), 0),
            Element.payload(Map.of("a", 1), 1),
            Element.payload(List.of(1, 2), 2),
            Element.payload(true, 3));
    assertThat(Element.extract(distinct, elements)).isEqualTo(3L);
  }

  @Test
  void nullsAreNotCounted() {
    List<Element> elements = List.of(Element.payload(null, 0), Element.payload("x", 1));
    assertThat(Element.extract(distinct, elements)).isEqualTo(1L);
  }

  @Test
  void hundredThousandDistinctValuesWithinHllError() {
    List<Element> elements =
        IntStream.range(0, 100_000).mapToObj(i -> Element.payload("id-" + i, i)).toList();
    long estimate = (Long) Element.extract(distinct, elements);
    // lgK 12 has a relative standard error of about 1.6%; 5% is more than three of them.
    assertThat(estimate).isBetween(95_000L, 105_000L);
  }

  @Test
  void mergeIsAUnion() {
    DistinctCountAggregate.Distinct into = distinct.create();
    DistinctCountAggregate.Distinct from = distinct.create();
    for (long i = 0; i < 60_000; i++) {
      distinct.add(into, Double.NaN, i, Double.NaN, 0);
    }
    for (long i = 30_000; i < 100_000; i++) {
      distinct.add(from, Double.NaN, i, Double.NaN, 0);
    }
    distinct.merge(into, from);
    assertThat((Long) distinct.extract(into)).isBetween(95_000L, 105_000L);
  }

  @Test
  void emptyAllocatesNoSketchAndCountsZero() {
    DistinctCountAggregate.Distinct acc = distinct.create();
    distinct.merge(acc, distinct.create());
    assertThat(acc.sketch).isNull();
    assertThat(distinct.extract(acc)).isEqualTo(0L);
    assertThat(heapify(distinct.partial(acc)).isEmpty()).isTrue();
  }

  @Test
  void partialDeserializesToTheSameSketch() {
    DistinctCountAggregate.Distinct acc = distinct.create();
    for (int i = 0; i < 20_000; i++) {
      distinct.add(acc, Double.NaN, "v" + i, Double.NaN, 0);
    }
    HllSketch sketch = heapify(distinct.partial(acc));
    assertThat(sketch.getLgConfigK()).isEqualTo(12);
    assertThat(Math.round(sketch.getCompositeEstimate())).isEqualTo(distinct.extract(acc));
    assertThat(sketch.toCompactByteArray()).isEqualTo(acc.sketch.toCompactByteArray());
  }

  @Test
  void sketchSizeSetsLgK() {
    Aggregate<?> sized = Aggregates.create(new AggregateSpec("distinctCount", List.of(), 16));
    Object partial = partialOf(sized, List.of(Element.payload("x", 0)));
    assertThat(heapify(partial).getLgConfigK()).isEqualTo(16);
  }

  @Test
  void usesPayloadsNotNumbers() {
    assertThat(distinct.type()).isEqualTo("distinctCount");
    assertThat(distinct.usesPayload()).isTrue();
    assertThat(distinct.needsNumber()).isFalse();
    assertThat(distinct.additive()).isFalse();
  }

  private static <A> Object partialOf(Aggregate<A> aggregate, List<Element> elements) {
    return aggregate.partial(Element.fold(aggregate, elements));
  }

  private static HllSketch heapify(Object partial) {
    return HllSketch.heapify(Memory.wrap(Base64.getDecoder().decode((String) partial)));
  }
}
