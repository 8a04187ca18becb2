package io.eventide.core.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimestampTextsTest {
  /**
   * A writer's kept texts are the formatter's, whatever comes back and whatever shares a slot:
   * minutes, their last milliseconds, times a slot apart, the bounds of time as watermarks.
   */
  @Test
  void aWritersKeptTextsAreTheFormattersOwn() {
    TimestampTexts times = new TimestampTexts();
    long minute = 1_767_225_600_000L;
    List<Long> pool = new ArrayList<>(List.of(0L, 1L, -1L, Time.MAX, Time.MIN));
    for (int m = 0; m < 40; m++) {
      pool.add(minute + m * 60_000L);
      pool.add(minute + m * 60_000L - 1);
    }
    Random random = new Random(18);
    for (int i = 0; i < 100_000; i++) {
      long t = pool.get(random.nextInt(pool.size()));
      if (t == Time.MAX || t == Time.MIN) {
        assertThat(times.watermark(t).getValue()).isEqualTo(Timestamps.formatWatermark(t));
      } else {
        assertThat(times.of(t).getValue()).as("%d", t).isEqualTo(Timestamps.format(t));
        assertThat(times.watermark(t).getValue())
            .as("%d", t)
            .isEqualTo(Timestamps.formatWatermark(t));
      }
    }
  }
}
