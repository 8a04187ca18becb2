package io.eventide.pipeline;

import io.eventide.engine.Time;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import tools.jackson.databind.JsonNode;

/**
 * The one place where event and processing times meet text: epoch milliseconds or ISO-8601 in,
 * ISO-8601 UTC with milliseconds out ({@code 1970-01-01T00:00:00.010Z}).
 */
public final class Timestamps {
  /** How the end of time is written where a watermark is read or shown. */
  private static final String END_OF_TIME = "+inf";

  /** How the beginning of time is shown where a watermark is shown. */
  private static final String BEGINNING_OF_TIME = "-inf";

  private static final DateTimeFormatter OUTPUT =
      new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

  /**
   * The range producers may use. Negative times are almost always a unit or sign mistake, and times
   * past year 9999 cannot be written in ISO-8601 without an extended year; both would otherwise
   * open windows no watermark short of the end of time ever closes.
   */
  public static final long EARLIEST = 0L;

  public static final long LATEST = 253_402_300_799_999L;

  private static final String EXPECTED = "must be epoch milliseconds or an ISO-8601 timestamp";

  private Timestamps() {}

  public static String format(long epochMillis) {
    return OUTPUT.format(Instant.ofEpochMilli(epochMillis));
  }

  /** Formats a watermark, showing the bounds of time as {@code -inf} and {@code +inf}. */
  public static String formatWatermark(long watermark) {
    if (watermark >= Time.MAX) {
      return END_OF_TIME;
    }
    if (watermark <= Time.MIN) {
      return BEGINNING_OF_TIME;
    }
    return format(watermark);
  }

  /**
   * Reads an integral number of epoch milliseconds or an ISO-8601 string with a zone offset.
   *
   * @throws IllegalArgumentException with a reason fit for a violation
   */
  public static long parse(JsonNode node) {
    long millis;
    if (node.isNumber()) {
      if (!node.canConvertToExactIntegral() || !node.canConvertToLong()) {
        throw new IllegalArgumentException(EXPECTED);
      }
      millis = node.longValue();
    } else if (node.isString()) {
      millis = parseIso(node.stringValue());
    } else {
      throw new IllegalArgumentException(EXPECTED);
    }
    if (millis < EARLIEST) {
      throw new IllegalArgumentException(
          "must not be before 1970-01-01T00:00:00Z (got " + millis + " ms)");
    }
    if (millis > LATEST) {
      throw new IllegalArgumentException(
          "must not be after 9999-12-31T23:59:59.999Z, long before the end of time (got "
              + millis
              + " ms)");
    }
    return millis;
  }

  /** Like {@link #parse}, and also accepts {@code "+inf"} for the end of time. */
  public static long parseWatermark(JsonNode node) {
    if (node.isString() && END_OF_TIME.equals(node.stringValue())) {
      return Time.MAX;
    }
    try {
      return parse(node);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage() + ", or \"+inf\" for the end of time");
    }
  }

  private static long parseIso(String text) {
    try {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from).toEpochMilli();
    } catch (DateTimeException | ArithmeticException e) {
      throw new IllegalArgumentException(
          EXPECTED + " with a zone, such as 2024-05-01T12:00:00Z (got '" + text + "')");
    }
  }
}
