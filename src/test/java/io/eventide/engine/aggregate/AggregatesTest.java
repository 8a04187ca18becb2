package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Base64;
import java.util.List;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

class AggregatesTest {

  @Test
  void typesAreTheTenAggregatesInOrder() {
    assertThat(Aggregates.TYPES)
        .containsExactly(
            "count",
            "sum",
            "min",
            "max",
            "mean",
            "collect",
            "latest",
            "distinctCount",
            "quantiles",
            "ohlc");
  }

  @ParameterizedTest
  @CsvSource({
    "count, false, false, true",
    "sum, true, false, true",
    "min, true, false, false",
    "max, true, false, false",
    "mean, true, false, false",
    "collect, false, true, false",
    "latest, false, true, false",
    "distinctCount, false, true, false",
    "quantiles, true, false, false",
    "ohlc, true, false, false"
  })
  void createsEachType(String type, boolean needsNumber, boolean usesPayload, boolean additive) {
    Aggregate<?> aggregate = Aggregates.create(AggregateSpec.of(type));
    assertThat(aggregate.type()).isEqualTo(type);
    assertThat(aggregate.needsNumber()).isEqualTo(needsNumber);
    assertThat(aggregate.usesPayload()).isEqualTo(usesPayload);
    assertThat(aggregate.additive()).isEqualTo(additive);
  }

  /**
   * An aggregate says it needs its partial to be combined exactly when its panes carry one, which
   * is what the definition's warning about discarding panes relies on.
   */
  @ParameterizedTest
  @FieldSource("io.eventide.engine.aggregate.Aggregates#TYPES")
  void needsItsPartialToCombineExactlyWhenItCarriesOne(String type) {
    assertThat(carriesPartial(Aggregates.create(AggregateSpec.of(type))))
        .isEqualTo(Aggregates.create(AggregateSpec.of(type)).needsPartialToCombine());
  }

  private static <A> boolean carriesPartial(Aggregate<A> aggregate) {
    A acc = aggregate.create();
    aggregate.add(acc, 2.0, "x", 1.0, 1_000L);
    return aggregate.partial(acc) != null;
  }

  @Test
  void rejectsUnknownAndMissingTypes() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Aggregates.create(AggregateSpec.of("median")))
        .withMessageContaining("'median'")
        .withMessageContaining("distinctCount");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Aggregates.create(AggregateSpec.of(null)))
        .withMessageContaining("missing");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3, 22, 64})
  void rejectsHllLgKOutside4To21(int lgK) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Aggregates.create(new AggregateSpec("distinctCount", List.of(), lgK)))
        .withMessageContaining("between 4 and 21")
        .withMessageContaining(String.valueOf(lgK));
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 0, 4, 21})
  void acceptsHllLgKInRangeOrDefault(int lgK) {
    Aggregate<?> aggregate = Aggregates.create(new AggregateSpec("distinctCount", List.of(), lgK));
    HllSketch emptySketch = HllSketch.heapify(Memory.wrap(emptyPartial(aggregate)));
    assertThat(emptySketch.getLgConfigK()).isEqualTo(lgK > 0 ? lgK : 12);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 7, 65_536})
  void rejectsKllKOutside8To65535(int k) {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Aggregates.create(new AggregateSpec("quantiles", List.of(), k)))
        .withMessageContaining("between 8 and 65535")
        .withMessageContaining(String.valueOf(k));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 8, 65_535})
  void acceptsKllKInRangeOrDefault(int k) {
    Aggregate<?> aggregate = Aggregates.create(new AggregateSpec("quantiles", List.of(), k));
    KllDoublesSketch emptySketch = KllDoublesSketch.heapify(Memory.wrap(emptyPartial(aggregate)));
    assertThat(emptySketch.getK()).isEqualTo(k > 0 ? k : 200);
  }

  @ParameterizedTest
  @ValueSource(doubles = {-0.01, 1.01, Double.NaN, Double.POSITIVE_INFINITY})
  void rejectsFractionsOutside0To1(double fraction) {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> Aggregates.create(new AggregateSpec("quantiles", List.of(0.5, fraction), 0)))
        .withMessageContaining("between 0 and 1")
        .withMessageContaining(String.valueOf(fraction));
  }

  private static byte[] emptyPartial(Aggregate<?> aggregate) {
    return Base64.getDecoder().decode((String) partialOfEmpty(aggregate));
  }

  private static <A> Object partialOfEmpty(Aggregate<A> aggregate) {
    return aggregate.partial(aggregate.create());
  }
}
