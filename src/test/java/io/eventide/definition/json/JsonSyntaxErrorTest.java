package io.eventide.definition.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.read.JsonLimits;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every family of the parser's complaints, told in Eventide's words with the line and column:
 * nothing of the parser's message (its classes, features, "Source: REDACTED") reaches a client.
 */
class JsonSyntaxErrorTest {
  private static final JsonMapper STRICT = new JsonLimits(3, 5, 10).strictMapper();

  private static JsonSyntaxError error(byte[] text) {
    try {
      STRICT.readTree(text);
    } catch (JacksonException e) {
      return JsonSyntaxError.of(e);
    }
    throw new AssertionError("parsed: " + new String(text, StandardCharsets.UTF_8));
  }

  private static JsonSyntaxError error(String text) {
    return error(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void saysWhatIsWrongAndWhereInItsOwnWords() {
    Map<String, String> cases = new LinkedHashMap<>();
    cases.put("{\"a\": }", "unexpected '}', a value was expected at line 1, column 7");
    cases.put("[1,\n 2,", "unexpected end of input at line 2, column 4");
    cases.put("{\"a\":1,\"a\":2}", "the property \"a\" is given twice at line 1, column 11");
    cases.put("{\"a\":1} x", "'x' is not a JSON value at line 1, column 9");
    cases.put("{\"a\":1} {}", "more follows the JSON value at line 1, column 9");
    cases.put("hello", "'hello' is not a JSON value at line 1, column 1");
    cases.put(
        "{a:1}",
        "unexpected 'a', a property name in double quotes was expected at line 1, column 2");
    cases.put(
        "{\"a\":\"x\ny\"}",
        "a control character (U+000A) in a string must be escaped at line 1, column 8");
    cases.put("{\"a\" 1}", "unexpected '1', ':' was expected at line 1, column 6");
    cases.put("{\"a\":1 \"b\":2}", "unexpected '\"', ',' or '}' was expected at line 1, column 8");
    cases.put("[1 2]", "unexpected '2', ',' or ']' was expected at line 1, column 4");
    cases.put("[01]", "a malformed number at line 1, column 3");
    cases.put("[NaN]", "'NaN' is not a JSON value at line 1, column 5");
    cases.put("\"\\q\"", "an invalid escape in a string at line 1, column 3");
    cases.put("{\"a\":1]", "unexpected ']', '}' was expected at line 1, column 7");
    cases.put("[[[[1]]]]", "nested deeper than 3 levels");
    cases.put("123456789", "a number longer than 5 characters");
    cases.put("\"abcdefghijklmnop\"", "a string longer than 10 characters");
    cases.forEach(
        (text, said) -> {
          JsonSyntaxError e = error(text);
          assertThat(e.describe()).as(text).isEqualTo(said);
          assertThat(e.problem()).as(text).doesNotContain("`", "Source", "REDACTED", "code");
        });
    assertThat(error(new byte[] {'[', '"', (byte) 0xC3, (byte) 0x28, '"', ']'}).problem())
        .isEqualTo("bytes that are not UTF-8");
    assertThat(error("[[[[1]]]]").overLimit()).isTrue();
    assertThat(error("[1,").overLimit()).isFalse();
  }

  @Test
  void givesTheLineOfATextOnlyWhenItHasSeveral() {
    assertThat(error("[1,").describeInText()).isEqualTo("unexpected end of input at column 4");
    assertThat(error("[1,\n2,").describeInText())
        .isEqualTo("unexpected end of input at line 2, column 3");
    assertThat(error("[[[[1]]]]").describeInText()).isEqualTo("nested deeper than 3 levels");
  }

  @Test
  void quotesTheClientsTextBounded() {
    String word = "x".repeat(100);
    assertThat(error(word).problem()).isEqualTo("'" + "x".repeat(40) + "…' is not a JSON value");
  }
}
