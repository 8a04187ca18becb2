package io.eventide.api;

import io.eventide.definition.json.JsonSyntaxError;
import io.eventide.runtime.IngestProperties;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses request bodies into JSON trees. Bodies are parsed here rather than by a codec so that a
 * malformed body is reported with its line and column in Eventide's words ({@link
 * MalformedJsonException}), so that duplicate keys, which would silently override each other, are
 * refused, and so that the read constraints (nesting depth, number and string length) bound what
 * one request can make the parser do.
 */
@Component
public class RequestJson {
  private final JsonMapper mapper;

  RequestJson(IngestProperties properties) {
    this.mapper = properties.json().strictMapper();
  }

  public JsonNode parse(String body) {
    try {
      return mapper.readTree(body);
    } catch (JacksonException e) {
      throw new MalformedJsonException(e);
    }
  }

  /** Parses UTF-8 bytes strictly: a byte sequence that is not UTF-8 is refused, never replaced. */
  public JsonNode parse(byte[] body) {
    try {
      return mapper.readTree(body);
    } catch (JacksonException e) {
      throw new MalformedJsonException(e);
    }
  }

  /**
   * A parser of a whole body under the same rules: its errors are {@link JacksonException}s for
   * {@link MalformedJsonException}.
   */
  JsonParser parser(byte[] body) {
    return mapper.createParser(body);
  }

  /**
   * Whether the body holds a JSON value rather than nothing but whitespace, checked in one
   * streaming pass by the rules of {@link #parse(byte[])}.
   *
   * @throws MalformedJsonException when it is not JSON
   */
  boolean holdsValue(byte[] body) {
    try (JsonParser p = parser(body)) {
      if (p.nextToken() == null) {
        return false;
      }
      p.skipChildren();
      if (p.nextToken() != null) {
        // What comes after the value: the tree parser says what and where.
        parse(body);
      }
      return true;
    } catch (JacksonException e) {
      throw new MalformedJsonException(e);
    }
  }

  /** Whether the slice is one JSON value, by the rules of {@link #parse(byte[])}. */
  boolean isJson(byte[] array, int offset, int length) {
    return whyNotJson(array, offset, length) == null;
  }

  /**
   * Why the slice, one text of several (an NDJSON line), is not one JSON value by the rules of
   * {@link #parse(byte[])}, in Eventide's words; null when it is.
   */
  String whyNotJson(byte[] array, int offset, int length) {
    try {
      mapper.readTree(array, offset, length);
      return null;
    } catch (JacksonException e) {
      return JsonSyntaxError.of(e).describeInText();
    }
  }
}
