package io.eventide.definition.json;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as written in definitions: ISO-8601 ({@code PT10S}, {@code P1D}) or short ({@code
 * 250ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 1d}). Normalised output always uses {@link
 * Duration#toString()}.
 */
public final class Durations {
  /** Beyond a century, window arithmetic could leave the range of event time. */
  public static final Duration MAX = Duration.ofDays(36_500);

  private static final Pattern SHORT = Pattern.compile("(-?\\d+)(ms|s|m|h|d)");

  private Durations() {}

  /**
   * Parses a duration in either form.
   *
   * @throws IllegalArgumentException with a reason fit for a violation
   */
  public static Duration parse(String text) {
    Duration d = parseEitherForm(text);
    if (d.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException("must be a whole number of milliseconds");
    }
    if (d.abs().compareTo(MAX) > 0) {
      throw new IllegalArgumentException("must not exceed " + MAX);
    }
    return d;
  }

  private static Duration parseEitherForm(String text) {
    Matcher m = SHORT.matcher(text);
    if (m.matches()) {
      try {
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
      } catch (ArithmeticException | NumberFormatException e) {
        throw new IllegalArgumentException("must not exceed " + MAX);
      }
    }
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "must be an ISO-8601 duration (PT10S, P1D) or a short one (250ms, 10s, 5m, 2h, 1d)");
    }
  }
}
