package io.eventide.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link KeyOrder} is the order of the keys' UTF-8 bytes, where UTF-16 order is not. */
class KeyOrderTest {
  @Test
  void keysCompareAsTheirUtf8Bytes() {
    List<String> keys =
        new ArrayList<>(
            List.of(
                "",
                "a",
                "ab",
                "ab\u0000",
                "abc",
                "\u007f",
                "\u0080",
                "\u00e9",
                "\u07ff",
                "\u0800",
                "\uD7FF",
                "\uE000",
                "\uE000x",
                "\uFFFD",
                "\uFFFF",
                "\uD800\uDC00",
                "\uD83D\uDE00",
                "\uD83D\uDE00a",
                "\uDBFF\uDFFF",
                "x\uFFFFy",
                "x\uD83D\uDE00y"));
    Random random = new Random(34);
    for (int i = 0; i < 600; i++) {
      keys.add(randomKey(random));
    }
    List<byte[]> bytes = keys.stream().map(k -> k.getBytes(StandardCharsets.UTF_8)).toList();
    for (int a = 0; a < keys.size(); a++) {
      for (int b = 0; b < keys.size(); b++) {
        assertThat(Integer.signum(KeyOrder.compare(keys.get(a), keys.get(b))))
            .as("%s against %s", keys.get(a), keys.get(b))
            .isEqualTo(Integer.signum(Arrays.compareUnsigned(bytes.get(a), bytes.get(b))));
      }
    }
    // Where UTF-16 order disagrees, so that the test above means something.
    assertThat("\uD83D\uDE00".compareTo("\uE000")).isNegative();
    assertThat(KeyOrder.compare("\uD83D\uDE00", "\uE000")).isPositive();
  }

  /**
   * A few code points, each near either end of a range that UTF-8 encodes at one length (the BMP
   * after the surrogates apart), so that neighbours of every boundary meet.
   */
  private static String randomKey(Random random) {
    int[][] ranges = {
      {0, 0x80}, {0x80, 0x800}, {0x800, 0xD800}, {0xE000, 0x10000}, {0x10000, 0x110000}
    };
    StringBuilder key = new StringBuilder();
    for (int i = random.nextInt(4); i >= 0; i--) {
      int[] range = ranges[random.nextInt(ranges.length)];
      int near = random.nextInt(64);
      key.appendCodePoint(random.nextBoolean() ? range[0] + near : range[1] - 1 - near);
    }
    return key.toString();
  }
}
