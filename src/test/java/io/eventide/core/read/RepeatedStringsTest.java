package io.eventide.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RepeatedStringsTest {
  private static String of(RepeatedStrings strings, String text) {
    char[] padded = ("<" + text + ">").toCharArray();
    return strings.of(padded, 1, text.length());
  }

  @Test
  void aStringReadAgainIsTheOneKept() {
    RepeatedStrings strings = new RepeatedStrings(16);
    String first = of(strings, "sensor-7");
    assertThat(of(strings, "sensor-7")).isSameAs(first);
    assertThat(of(strings, "")).isEmpty();
  }

  /** A small table: strings share slots all the time, and each still reads as itself. */
  @Test
  void everyStringReadsAsItselfWhateverSharesItsSlot() {
    RepeatedStrings strings = new RepeatedStrings(16);
    Random random = new Random(18);
    for (int i = 0; i < 100_000; i++) {
      String text =
          random.nextInt(50) == 0
              ? "long".repeat(20) + random.nextInt(5)
              : "k" + random.nextInt(40) + (random.nextBoolean() ? "é" : "");
      assertThat(of(strings, text)).isEqualTo(text);
    }
  }
}
