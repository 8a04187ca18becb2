package io.eventide.definition.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
    "PT10S, PT10S",
    "P1D, PT24H",
    "PT0.25S, PT0.25S",
    "250ms, PT0.25S",
    "10s, PT10S",
    "5m, PT5M",
    "2h, PT2H",
    "1d, PT24H",
    "0s, PT0S",
    "-1m, PT-1M"
  })
  void readsBothForms(String text, String normalised) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.parse(normalised));
    assertThat(Durations.parse(text).toString()).isEqualTo(normalised);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "10", "ten seconds", "10 s", "1w", "PT", "P1Y"})
  void refusesOtherText(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ISO-8601");
  }

  @ParameterizedTest
  @ValueSource(strings = {"P36501D", "99999999999999999999d", "9999999999999d"})
  void refusesDurationsBeyondACentury(String text) {
    assertThatThrownBy(() -> Durations.parse(text)).hasMessageContaining("must not exceed");
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT0.0001S", "PT1.0005S"})
  void refusesFractionsOfAMillisecond(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .hasMessageContaining("whole number of milliseconds");
  }
}
