package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every aggregate's accumulator survives {@link Aggregate#write} and {@link Aggregate#read}: the
 * copy extracts, reports and serializes as the original, empty or not, and goes on doing so as both
 * take the same further elements.
 */
class AggregateCodecTest {

  private static final int TRIALS = 200;

  static List<String> types() {
    return Aggregates.TYPES;
  }

  @ParameterizedTest
  @MethodSource("types")
  void aReadAccumulatorBehavesAsTheWrittenOne(String type) {
    Aggregate<?> aggregate = Aggregates.create(AggregateSpec.of(type));
    SplittableRandom random = new SplittableRandom(type.hashCode());
    for (int trial = 0; trial < TRIALS; trial++) {
      assertRoundTrip(aggregate, elements(random, trial % 10 == 0 ? 0 : 60), elements(random, 60));
    }
  }

  /** Beyond the KLL sketch's k (200) it compacts; the copy must keep the compacted levels. */
  @Test
  void aCompactedQuantilesSketchReadsBackEqual() {
    Aggregate<?> quantiles = Aggregates.create(AggregateSpec.of("quantiles"));
    assertRoundTrip(quantiles, elements(new SplittableRandom(1), 5_000), List.of());
  }

  @Test
  void aDistinctCountSketchInHllModeReadsBackEqual() {
    Aggregate<?> distinct = Aggregates.create(AggregateSpec.of("distinctCount"));
    assertRoundTrip(
        distinct, elements(new SplittableRandom(2), 5_000), elements(new SplittableRandom(3), 100));
  }

  /** Sums whose compensation term matters: only writing it too keeps the results bit-identical. */
  @Test
  void aSumKeepsItsCompensation() {
    Aggregate<?> sum = Aggregates.create(AggregateSpec.of("sum"));
    List<Element> tenths = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      tenths.add(Element.number(0.1, i));
    }
    tenths.add(Element.number(1e17, 10));
    assertRoundTrip(sum, tenths, List.of(Element.number(-1e17, 11), Element.number(0.3, 12)));
  }

  /** Named aggregates write each accumulator after its name, and read back only their own. */
  @Test
  void namedAggregatesReadBackEqualAndRefuseOtherNames() {
    List<Aggregate<?>> parts = new ArrayList<>();
    for (String type : Aggregates.TYPES) {
      parts.add(Aggregates.create(AggregateSpec.of(type)));
    }
    List<String> names = Aggregates.TYPES.stream().map(t -> "a_" + t).toList();
    NamedAggregates named = new NamedAggregates(names, parts);
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 20; trial++) {
      assertRoundTrip(named, elements(random, 60), elements(random, 20));
    }
    List<String> renamed = new ArrayList<>(names);
    renamed.set(3, "other");
    NamedAggregates other = new NamedAggregates(renamed, parts);
    byte[] bytes = write(named, named.create());
    assertThatThrownBy(() -> other.read(new DataInputStream(new ByteArrayInputStream(bytes))))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("aggregate 'a_max' where this pipeline has 'other'");
  }

  private static <A> void assertRoundTrip(
      Aggregate<A> aggregate, List<Element> before, List<Element> after) {
    A original = Element.fold(aggregate, before);
    A copy = read(aggregate, write(aggregate, original));
    assertSame(aggregate, original, copy, before);
    for (Element element : after) {
      element.addTo(aggregate, original);
      element.addTo(aggregate, copy);
    }
    assertSame(aggregate, original, copy, after);
  }

  private static <A> void assertSame(Aggregate<A> aggregate, A original, A copy, Object context) {
    assertThat(aggregate.extract(copy))
        .as("%s extract after %s", aggregate.type(), context)
        .isEqualTo(aggregate.extract(original));
    assertThat(aggregate.partial(copy))
        .as("%s partial after %s", aggregate.type(), context)
        .isEqualTo(aggregate.partial(original));
    assertThat(write(aggregate, copy)).isEqualTo(write(aggregate, original));
  }

  private static <A> byte[] write(Aggregate<A> aggregate, A acc) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      aggregate.write(acc, new DataOutputStream(bytes));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static <A> A read(Aggregate<A> aggregate, byte[] bytes) {
    ByteArrayInputStream in = new ByteArrayInputStream(bytes);
    try {
      A acc = aggregate.read(new DataInputStream(in));
      assertThat(in.available()).as("bytes left unread").isZero();
      return acc;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Up to {@code max} elements with fractional prices (so that sums carry a compensation), ties on
   * timestamps, and payloads of every plain type.
   */
  private static List<Element> elements(SplittableRandom random, int max) {
    int size = max == 0 ? 0 : random.nextInt(max + 1);
    List<Element> elements = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      double price = random.nextInt(-4000, 4000) / 7.0;
      double volume = random.nextInt(5) == 0 ? Double.NaN : random.nextInt(0, 40) / 3.0;
      elements.add(new Element(price, payload(random, 2), volume, random.nextLong(0, 20)));
    }
    return elements;
  }

  static Object payload(SplittableRandom random, int depth) {
    switch (random.nextInt(depth > 0 ? 11 : 9)) {
      case 0:
        return null;
      case 1:
        return random.nextBoolean();
      case 2:
        return "s" + random.nextInt(50);
      case 3:
        return random.nextLong(-1_000_000, 1_000_000);
      case 4:
        return random.nextInt();
      case 5:
        return random.nextInt(-100, 100) / 8.0;
      case 6:
        return BigInteger.valueOf(random.nextLong()).shiftLeft(70);
      case 7:
        return new BigDecimal(BigInteger.valueOf(random.nextInt(-999, 999)), random.nextInt(-2, 5));
      case 8:
        return random.nextLong();
      case 9:
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          list.add(payload(random, depth - 1));
        }
        return list;
      default:
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
          map.put("f" + random.nextInt(10), payload(random, depth - 1));
        }
        return map;
    }
  }
}
