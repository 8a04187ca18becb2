package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OutputNumbersTest {

  @Test
  void integralValuesBecomeLongs() {
    assertThat(OutputNumbers.of(45.0)).isEqualTo(45L);
    assertThat(OutputNumbers.of(-3.0)).isEqualTo(-3L);
    assertThat(OutputNumbers.of(-0.0)).isEqualTo(0L);
    assertThat(OutputNumbers.of(0x1p53 - 1)).isEqualTo((1L << 53) - 1);
  }

  @Test
  void fractionsHugeValuesAndNonFiniteStayDoubles() {
    assertThat(OutputNumbers.of(2.5)).isEqualTo(2.5);
    assertThat(OutputNumbers.of(0x1p53)).isEqualTo(0x1p53);
    assertThat(OutputNumbers.of(-1e300)).isEqualTo(-1e300);
    assertThat(OutputNumbers.of(Double.POSITIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(OutputNumbers.of(Double.NaN)).isEqualTo(Double.NaN);
  }
}
