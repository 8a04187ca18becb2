package io.eventide.definition.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.engine.Time;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class TimestampsTest {
  private static JsonNode json(String text) {
    return JsonMapper.shared().readTree(text);
  }

  @Test
  void formatsUtcWithMilliseconds() {
    assertThat(Timestamps.format(10)).isEqualTo("1970-01-01T00:00:00.010Z");
    assertThat(Timestamps.format(0)).isEqualTo("1970-01-01T00:00:00.000Z");
    assertThat(Timestamps.format(-1)).isEqualTo("1969-12-31T23:59:59.999Z");
    assertThat(Timestamps.format(1_714_564_800_000L)).isEqualTo("2024-05-01T12:00:00.000Z");
  }

  @Test
  void writesEveryInstantAsTheIsoFormatterDoes() {
    DateTimeFormatter iso = new DateTimeFormatterBuilder().appendInstant(3).toFormatter();
    long last = 253_402_300_799_999L;
    List<Long> instants =
        new ArrayList<>(
            List.of(
                0L,
                1L,
                86_399_999L,
                86_400_000L,
                951_782_400_000L, // 2000-02-29
                4_107_542_400_000L, // 2100-03-01, after a non-leap 29th that is not there
                last,
                last + 1,
                Long.MAX_VALUE / 2));
    Random random = new Random(18);
    for (int i = 0; i < 100_000; i++) {
      instants.add(Math.floorMod(random.nextLong(), last + 1));
    }
    for (long t : instants) {
      assertThat(Timestamps.format(t)).as("%d", t).isEqualTo(iso.format(Instant.ofEpochMilli(t)));
    }
  }

  @Test
  void showsTheBoundsOfTimeAsInfinity() {
    assertThat(Timestamps.formatWatermark(Time.MAX)).isEqualTo("+inf");
    assertThat(Timestamps.formatWatermark(Time.MIN)).isEqualTo("-inf");
    assertThat(Timestamps.formatWatermark(60_000)).isEqualTo("1970-01-01T00:01:00.000Z");
  }

  @Test
  void parsesEpochMillisAndIso() {
    assertThat(Timestamps.parse(json("1500"))).isEqualTo(1500);
    assertThat(Timestamps.parse(json("1500.0"))).isEqualTo(1500);
    assertThat(Timestamps.parse(json("\"1970-01-01T00:00:01.500Z\""))).isEqualTo(1500);
    assertThat(Timestamps.parse(json("\"1970-01-01T01:00:01.5+01:00\""))).isEqualTo(1500);
    assertThat(Timestamps.parse(json("\"2024-05-01T12:00:00Z\""))).isEqualTo(1_714_564_800_000L);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1.5",
        "true",
        "{}",
        "\"yesterday\"",
        "\"2024-05-01T12:00:00\"",
        "\"2024-05-01\"",
        "\"+inf\""
      })
  void refusesOtherValues(String text) {
    assertThatThrownBy(() -> Timestamps.parse(json(text)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("epoch milliseconds or an ISO-8601 timestamp");
  }

  @Test
  void refusesTimesBeyondTheEndOfTime() {
    assertThatThrownBy(() -> Timestamps.parse(json("9223372036854775807")))
        .hasMessageContaining("end of time");
  }

  @Test
  void refusesNegativeAndAbsurdTimesWithTheReason() {
    assertThatThrownBy(() -> Timestamps.parse(json("-5")))
        .hasMessageContaining("must not be before 1970-01-01T00:00:00Z");
    assertThatThrownBy(() -> Timestamps.parse(json("\"1969-12-31T23:59:59Z\"")))
        .hasMessageContaining("must not be before");
    assertThatThrownBy(() -> Timestamps.parse(json("253402300800000")))
        .hasMessageContaining("must not be after 9999-12-31T23:59:59.999Z");
    assertThat(Timestamps.parse(json("253402300799999"))).isEqualTo(Timestamps.LATEST);
    assertThatThrownBy(() -> Timestamps.parse(json("1e400"))).hasMessageContaining("epoch");
  }

  @Test
  void readsPlusInfinityOnlyAsAWatermark() {
    assertThat(Timestamps.parseWatermark(json("\"+inf\""))).isEqualTo(Time.MAX);
    assertThat(Timestamps.parseWatermark(json("25"))).isEqualTo(25);
  }
}
