package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Plain values read back equal and of the same type, and map order survives. */
class PlainValueCodecTest {

  @Test
  void everyPlainTypeReadsBackEqualAndOfTheSameType() throws IOException {
    List<Object> values =
        Arrays.asList(
            null,
            true,
            false,
            "",
            "plain",
            "\u00e9t\u00e9 \ud83d\ude00 and a lone \ud800 surrogate",
            "x".repeat(70_000),
            0L,
            -1L,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            42,
            Integer.MIN_VALUE,
            0.0,
            -0.0,
            1.5,
            -7.0,
            0x1p60,
            Double.NaN,
            Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE,
            new BigInteger("123456789012345678901234567890"),
            new BigDecimal("1.50"),
            new BigDecimal("-1E+3"),
            List.of(),
            List.of(1L, "two", List.of(3.0)));
    for (Object value : values) {
      Object read = roundTrip(value);
      assertThat(read).as("%s", value).isEqualTo(value);
      if (value != null && !(value instanceof List)) {
        assertThat(read).as("%s", value).hasSameClassAs(value);
      }
    }
  }

  @Test
  void aBigDecimalKeepsItsScale() throws IOException {
    assertThat(((BigDecimal) roundTrip(new BigDecimal("2.000"))).scale()).isEqualTo(3);
  }

  @Test
  void mapsKeepTheirOrder() throws IOException {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("z", 1L);
    map.put("a", null);
    map.put("m", Map.of("inner", true));
    @SuppressWarnings("unchecked")
    Map<String, Object> read = (Map<String, Object>) roundTrip(map);
    assertThat(read).isEqualTo(map);
    assertThat(read.keySet()).containsExactly("z", "a", "m");
  }

  @Test
  void randomNestedValuesReadBackEqual() throws IOException {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 1_000; i++) {
      Object value = AggregateCodecTest.payload(random, 3);
      assertThat(roundTrip(value)).isEqualTo(value);
    }
  }

  @Test
  void aValueOutsideThePlainTypesIsRejected() {
    assertThatThrownBy(() -> roundTrip(new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a plain value");
    assertThatThrownBy(() -> roundTrip(Map.of(1, "one")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("map key");
  }

  private static Object roundTrip(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PlainValueCodec.write(value, new DataOutputStream(bytes));
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    Object read = PlainValueCodec.read(in);
    assertThat(in.available()).isZero();
    return read;
  }
}
