package io.eventide.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompensatedSumTest {

  @Test
  void tenthsAddUpExactly() {
    CompensatedSum sum = new CompensatedSum();
    for (int i = 0; i < 10; i++) {
      sum.add(0.1);
    }
    assertThat(sum.value()).isEqualTo(1.0);
  }

  @Test
  void smallTermsSurviveNextToLargeOnes() {
    CompensatedSum sum = new CompensatedSum();
    sum.add(1e16);
    sum.add(1.0);
    sum.add(-1e16);
    assertThat(sum.value()).isEqualTo(1.0);
  }

  @Test
  void mergingKeepsBothCompensations() {
    CompensatedSum left = new CompensatedSum();
    CompensatedSum right = new CompensatedSum();
    left.add(1e16);
    left.add(1.0);
    right.add(-1e16);
    right.add(1.0);
    left.add(right);
    assertThat(left.value()).isEqualTo(2.0);
  }

  @Test
  void overflowIsInfiniteNotNaN() {
    CompensatedSum sum = new CompensatedSum();
    sum.add(Double.MAX_VALUE);
    sum.add(Double.MAX_VALUE);
    assertThat(sum.value()).isEqualTo(Double.POSITIVE_INFINITY);
  }
}
