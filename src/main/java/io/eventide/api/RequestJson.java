package io.eventide.api;

import io.eventide.runtime.IngestProperties;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses request bodies into JSON trees. Bodies are parsed here rather than by a codec so that a
 * malformed body is reported with its line and column, so that duplicate keys, which would silently
 * override each other, are refused, and so that the read constraints (nesting depth, number and
 * string length) bound what one request can make the parser do.
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

  /** Whether the slice is one JSON value, by the rules of {@link #parse(byte[])}. */
  boolean isJson(byte[] array, int offset, int length) {
    try {
      mapper.readTree(array, offset, length);
      return true;
    } catch (JacksonException e) {
      return false;
    }
  }
}
