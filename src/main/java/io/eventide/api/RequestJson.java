package io.eventide.api;

import io.eventide.config.IngestProperties;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
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
    StreamReadConstraints constraints =
        StreamReadConstraints.builder()
            .maxNestingDepth(properties.maxJsonDepth())
            .maxNumberLength(properties.maxNumberLength())
            .maxStringLength(properties.maxStringLength())
            .build();
    this.mapper =
        JsonMapper.builder(JsonFactory.builder().streamReadConstraints(constraints).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
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
}
