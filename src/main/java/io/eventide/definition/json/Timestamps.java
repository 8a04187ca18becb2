package io.eventide.definition.json;

import io.eventide.engine.Time;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.Year;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.Locale;
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

  /** What a CloudEvent's {@code time} must be. */
  public static final String RFC_3339 =
      "must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z";

  private Timestamps() {}

  /** The last millisecond of year 9999, the last instant written with a four-digit year. */
  private static final long LAST_FOUR_DIGIT_YEAR = 253_402_300_799_999L;

  /**
   * {@code 2024-05-01T12:00:00.000Z}. Every pane record carries several of these; within years 1970
   * to 9999 (where events live) they are written digit by digit: about 40 ns against the
   * formatter's 100 ns on this machine, and the formatter showed in profiles of the service over
   * HTTP.
   */
  public static String format(long epochMillis) {
    if (epochMillis < 0 || epochMillis > LAST_FOUR_DIGIT_YEAR) {
      return OUTPUT.format(Instant.ofEpochMilli(epochMillis));
    }
    long days = epochMillis / 86_400_000L;
    int ofDay = (int) (epochMillis % 86_400_000L);
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar in eras of 400
    // years, as in Howard Hinnant's date algorithms).
    long z = days + 719_468;
    long era = z / 146_097;
    int dayOfEra = (int) (z - era * 146_097);
    int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
    int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    int mp = (5 * dayOfYear + 2) / 153;
    int day = dayOfYear - (153 * mp + 2) / 5 + 1;
    int month = mp < 10 ? mp + 3 : mp - 9;
    int year = (int) (yearOfEra + era * 400) + (month <= 2 ? 1 : 0);
    char[] out = new char[24];
    digits(out, 0, year, 4);
    out[4] = '-';
    digits(out, 5, month, 2);
    out[7] = '-';
    digits(out, 8, day, 2);
    out[10] = 'T';
    digits(out, 11, ofDay / 3_600_000, 2);
    out[13] = ':';
    digits(out, 14, ofDay / 60_000 % 60, 2);
    out[16] = ':';
    digits(out, 17, ofDay / 1000 % 60, 2);
    out[19] = '.';
    digits(out, 20, ofDay % 1000, 3);
    out[23] = 'Z';
    return new String(out);
  }

  private static void digits(char[] out, int at, int value, int width) {
    for (int i = at + width - 1; i >= at; i--) {
      out[i] = (char) ('0' + value % 10);
      value /= 10;
    }
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
    if (node.isNumber()) {
      if (!node.canConvertToExactIntegral() || !node.canConvertToLong()) {
        throw new IllegalArgumentException(EXPECTED);
      }
      return inRange(node.longValue());
    }
    if (node.isString()) {
      return parse(node.stringValue());
    }
    throw new IllegalArgumentException(EXPECTED);
  }

  /** Like {@link #parse(JsonNode)}, for a JSON string's text. */
  public static long parse(String iso) {
    return inRange(parseIso(iso));
  }

  /**
   * Reads an RFC 3339 timestamp, a CloudEvent's {@code time}: ISO-8601 with a zone offset, whose
   * {@code T} and {@code Z} may be written in lower case.
   *
   * @throws IllegalArgumentException with a reason fit for a violation
   */
  public static long parseRfc3339(String text) {
    long millis = parseCommonForm(text);
    if (millis != NOT_COMMON) {
      return inRange(millis);
    }
    String upper =
        text.indexOf('t') < 0 && text.indexOf('z') < 0 ? text : text.toUpperCase(Locale.ROOT);
    try {
      return inRange(
          DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(upper, Instant::from).toEpochMilli());
    } catch (DateTimeException | ArithmeticException e) {
      throw new IllegalArgumentException(RFC_3339 + " (got '" + text + "')");
    }
  }

  /**
   * Reads a time this service rendered into a record, such as a pane's {@code finalAt}: any
   * instant, those past the range producers may use included (a global window is final only at the
   * end of time).
   */
  public static long parseRendered(String iso) {
    return parseIso(iso);
  }

  /**
   * Like {@link #parse(JsonNode)}, for an integral JSON number read as a long.
   *
   * @throws IllegalArgumentException when the time is outside the range producers may use
   */
  public static long inRange(long millis) {
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
    long millis = parseCommonForm(text);
    if (millis != NOT_COMMON) {
      return millis;
    }
    try {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from).toEpochMilli();
    } catch (DateTimeException | ArithmeticException e) {
      throw new IllegalArgumentException(
          EXPECTED + " with a zone, such as 2024-05-01T12:00:00Z (got '" + text + "')");
    }
  }

  /** What {@link #parseCommonForm} answers for a text it leaves to the formatter. */
  static final long NOT_COMMON = Long.MIN_VALUE;

  /**
   * The form nearly every producer writes, {@code 2024-05-01T12:00:00[.fraction](Z|±hh:mm)} in
   * years 1970 to 9999, read digit by digit; NOT_COMMON for any other text, valid or not, which the
   * formatter then reads or refuses as before. It accepts only texts the formatter accepts, with
   * the same value (the formatter reads {@code t} and {@code z} in either case too). The formatter
   * took about 800 ns a text, this about 40 ns, and a CloudEvent's {@code time} or an event's ISO
   * timestamp is read once per event.
   */
  static long parseCommonForm(String s) {
    int n = s.length();
    if (n < 20
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || (s.charAt(10) | 0x20) != 't'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':') {
      return NOT_COMMON;
    }
    int year = number(s, 0, 4);
    int month = number(s, 5, 2);
    int day = number(s, 8, 2);
    int hour = number(s, 11, 2);
    int minute = number(s, 14, 2);
    int second = number(s, 17, 2);
    if (year < 1970
        || month < 1
        || month > 12
        || day < 1
        || day > Month.of(month).length(Year.isLeap(year))
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59) {
      return NOT_COMMON;
    }
    int at = 19;
    int millis = 0;
    if (s.charAt(at) == '.') {
      int digits = 0;
      while (at + 1 < n && isDigit(s.charAt(at + 1))) {
        at++;
        digits++;
        if (digits <= 3) {
          millis = millis * 10 + (s.charAt(at) - '0');
        }
      }
      if (digits == 0 || digits > 9) {
        return NOT_COMMON;
      }
      for (int d = digits; d < 3; d++) {
        millis *= 10;
      }
      at++;
    }
    int offsetSeconds;
    if (at == n - 1 && (s.charAt(at) | 0x20) == 'z') {
      offsetSeconds = 0;
    } else if (at == n - 6
        && (s.charAt(at) == '+' || s.charAt(at) == '-')
        && s.charAt(at + 3) == ':') {
      int offsetHours = number(s, at + 1, 2);
      int offsetMinutes = number(s, at + 4, 2);
      if (offsetHours < 0 || offsetHours > 17 || offsetMinutes < 0 || offsetMinutes > 59) {
        return NOT_COMMON;
      }
      offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (s.charAt(at) == '-' ? -1 : 1);
    } else {
      return NOT_COMMON;
    }
    long seconds =
        LocalDate.of(year, month, day).toEpochDay() * 86_400L
            + hour * 3600L
            + minute * 60L
            + second;
    return (seconds - offsetSeconds) * 1000L + millis;
  }

  /** The decimal number of {@code width} digits at {@code at}, or -1 if one is no digit. */
  private static int number(String s, int at, int width) {
    int value = 0;
    for (int i = at; i < at + width; i++) {
      char c = s.charAt(i);
      if (!isDigit(c)) {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
