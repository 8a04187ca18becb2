package io.eventide.definition.json;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;

/**
 * Why a text is not the JSON it should be, in Eventide's words and with where it went wrong: what a
 * client is told instead of the parser's message, which names the parser's classes and features and
 * says nothing about where the text came from ("Source: REDACTED").
 *
 * @param problem what is wrong, such as {@code unexpected end of input}
 * @param line the line it was found on, 1-based; 0 when the parser does not say (a limit)
 * @param column the column on that line, 1-based; 0 when the parser does not say
 * @param overLimit whether the text broke a limit (depth, number or string length) rather than the
 *     grammar: it may be well-formed
 */
public record JsonSyntaxError(String problem, int line, int column, boolean overLimit) {
  /** Quoted text of the client's echoed back at most this long. */
  private static final int MAX_QUOTED = 40;

  private static final Pattern CODE = Pattern.compile("code (\\d+)\\)");
  private static final Pattern QUOTED = Pattern.compile("'([^']*)'");
  private static final Pattern DOUBLE_QUOTED = Pattern.compile("\"(.*)\"");
  private static final Pattern LIMIT = Pattern.compile("maximum allowed \\((\\d+)");

  /** The parser's complaint, told in Eventide's words. */
  public static JsonSyntaxError of(JacksonException e) {
    TokenStreamLocation at = e.getLocation();
    int line = at != null && at.getLineNr() > 0 ? at.getLineNr() : 0;
    int column = line > 0 ? at.getColumnNr() : 0;
    String message = String.valueOf(e.getOriginalMessage());
    if (e instanceof StreamConstraintsException) {
      return new JsonSyntaxError(limit(message), line, column, true);
    }
    return new JsonSyntaxError(problem(message), line, column, false);
  }

  /** {@code unexpected end of input at line 3, column 14}: for a request body. */
  public String describe() {
    return line > 0 ? problem + " at line " + line + ", column " + column : problem;
  }

  /**
   * {@code unexpected end of input at column 14}: for one text of several (an NDJSON line, a Kafka
   * record), whose position the answer gives otherwise; its line only when it has more than one.
   */
  public String describeInText() {
    if (line == 0) {
      return problem;
    }
    return line == 1 ? problem + " at column " + column : describe();
  }

  /**
   * The grammar rule the parser names, each as one family of its messages: a message of a family
   * not known here says only that the text is malformed, never what the parser said.
   */
  private static String problem(String message) {
    if (message.startsWith("Unexpected end-of-input")) {
      return "unexpected end of input";
    }
    if (message.startsWith("Unexpected character")) {
      return "unexpected " + character(message) + expected(message);
    }
    if (message.startsWith("Illegal unquoted character")) {
      return "a control character (" + character(message) + ") in a string must be escaped";
    }
    if (message.startsWith("Unexpected close marker")) {
      return "unexpected " + quoted(message, 0) + ", " + quoted(message, 1) + " was expected";
    }
    if (message.startsWith("Unrecognized token") || message.startsWith("Non-standard token")) {
      return quoted(message, 0) + " is not a JSON value";
    }
    if (message.startsWith("Duplicate")) {
      return "the property " + propertyName(message) + " is given twice";
    }
    if (message.startsWith("Trailing token")) {
      return "more follows the JSON value";
    }
    if (message.startsWith("Invalid numeric value")) {
      return "a malformed number";
    }
    if (message.startsWith("Unrecognized character escape")) {
      return "an invalid escape in a string";
    }
    if (message.startsWith("Invalid UTF-8")) {
      return "bytes that are not UTF-8";
    }
    return "malformed JSON";
  }

  /** A read constraint's message: which one, and the limit. */
  private static String limit(String message) {
    Matcher m = LIMIT.matcher(message);
    String max = m.find() ? m.group(1) : null;
    if (message.contains("nesting depth")) {
      return max == null ? "nested too deeply" : "nested deeper than " + max + " levels";
    }
    String what =
        message.startsWith("Number")
            ? "a number"
            : message.startsWith("String") ? "a string" : "a property name";
    return max == null ? what + " too long" : what + " longer than " + max + " characters";
  }

  /** The character the parser names by its code, quoted when it is printable. */
  private static String character(String message) {
    Matcher m = CODE.matcher(message);
    if (!m.find()) {
      return "character";
    }
    int c = Integer.parseInt(m.group(1));
    if (c > 0x20 && c < 0x7f) {
      return "'" + (char) c + "'";
    }
    return "U+%04X".formatted(c);
  }

  /** What the parser expected instead of an unexpected character, when it says. */
  private static String expected(String message) {
    if (message.contains("expected a valid value") || message.contains("expected a value")) {
      return ", a value was expected";
    }
    if (message.contains("start property name")) {
      return ", a property name in double quotes was expected";
    }
    if (message.contains("colon")) {
      return ", ':' was expected";
    }
    if (message.contains("Object entries")) {
      return ", ',' or '}' was expected";
    }
    if (message.contains("Array entries")) {
      return ", ',' or ']' was expected";
    }
    return "";
  }

  /** The {@code n}th text in single quotes of the message, quoted and bounded. */
  private static String quoted(String message, int n) {
    Matcher m = QUOTED.matcher(message);
    for (int i = 0; i <= n; i++) {
      if (!m.find()) {
        return "text";
      }
    }
    return "'" + bounded(m.group(1)) + "'";
  }

  /** The property named in a duplicate's message, in double quotes there or single. */
  private static String propertyName(String message) {
    Matcher m = DOUBLE_QUOTED.matcher(message);
    if (m.find()) {
      return "\"" + bounded(m.group(1)) + "\"";
    }
    return quoted(message, 0).replace('\'', '"');
  }

  private static String bounded(String text) {
    return text.length() <= MAX_QUOTED ? text : text.substring(0, MAX_QUOTED) + "…";
  }
}
