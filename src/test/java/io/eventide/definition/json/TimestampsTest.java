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

  /**
   * The common form is read digit by digit; every text it reads must be one the formatter reads to
   * the same instant, and it must read the forms producers write (else the shortcut is dead code).
   * Texts near that form, one character changed, probe its edges: what it leaves, the formatter
   * reads or refuses as before.
   */
  @Test
  void readsTheCommonFormAsTheFormatterDoesAndLeavesEveryOtherTextToIt() {
    Random random = new Random(33);
    String alphabet = "0123456789-:+.TtZz x";
    int common = 0;
    int mutatedCommon = 0;
    for (int i = 0; i < 200_000; i++) {
      long millis = Math.floorMod(random.nextLong(), Timestamps.LATEST + 1);
      String text = commonForm(millis, random);
      long read = Timestamps.parseCommonForm(text);
      if (read != Timestamps.NOT_COMMON) {
        common++;
        assertThat(read).as(text).isEqualTo(formatterReads(text));
      }
      char[] mutated = text.toCharArray();
      mutated[random.nextInt(mutated.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
      String near = new String(mutated);
      long readNear = Timestamps.parseCommonForm(near);
      if (readNear != Timestamps.NOT_COMMON) {
        mutatedCommon++;
        assertThat(readNear).as(near).isEqualTo(formatterReads(near));
      }
    }
    assertThat(common).as("texts of the common form read by the shortcut").isGreaterThan(150_000);
    assertThat(mutatedCommon).isPositive();
    for (String edge :
        List.of(
            "2024-02-29T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2100-02-29T00:00:00Z",
            "2000-02-29T23:59:59.999999999+17:59",
            "1970-01-01T00:00:00-00:01",
            "1969-12-31T23:59:59Z",
            "9999-12-31T23:59:59.999Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T10:00:60Z",
            "2026-01-01T10:00:00+18:00",
            "2026-01-01T10:00:00.Z",
            "2026-01-01T10:00:00.1234567891Z",
            "2026-01-01T10:00Z",
            "2026-01-01T10:00:00+01:00:30")) {
      long read = Timestamps.parseCommonForm(edge);
      if (read != Timestamps.NOT_COMMON) {
        assertThat(read).as(edge).isEqualTo(formatterReads(edge));
      }
    }
  }

  /** {@code millis} written as producers do: a fraction of 0 to 9 digits, Z or an offset. */
  private static String commonForm(long millis, Random random) {
    int offsetMinutes = random.nextInt(4) == 0 ? 0 : random.nextInt(2 * 18 * 60 + 1) - 18 * 60;
    String local =
        Instant.ofEpochMilli(millis)
            .atOffset(java.time.ZoneOffset.ofTotalSeconds(offsetMinutes * 60))
            .toLocalDateTime()
            .format(DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss"));
    int digits = random.nextInt(10);
    String fraction =
        digits == 0
            ? ""
            : "."
                + String.format("%09d", (millis % 1000) * 1_000_000 + random.nextInt(1_000_000))
                    .substring(0, digits);
    String zone =
        offsetMinutes == 0 && random.nextBoolean()
            ? (random.nextBoolean() ? "Z" : "z")
            : "%s%02d:%02d"
                .formatted(
                    offsetMinutes < 0 ? "-" : "+",
                    Math.abs(offsetMinutes) / 60,
                    Math.abs(offsetMinutes) % 60);
    String t = random.nextInt(10) == 0 ? "t" : "T";
    return local.replace("T", t) + fraction + zone;
  }

  /** What the formatter makes of {@code text}; fails the test when it refuses it. */
  private static long formatterReads(String text) {
    return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from).toEpochMilli();
  }
}
