package io.eventide.api;

import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses request bodies into JSON trees. Bodies are parsed here rather than by a codec so that a
 * malformed body is reported with its line and column, and so that duplicate keys, which would
 * silently override each other, are refused.
 */
@Component
class RequestJson {
  private final JsonMapper mapper =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  JsonNode parse(String body) {
    try {
      return mapper.readTree(body);
    } catch (JacksonException e) {
      throw new MalformedJsonException(e);
    }
  }
}
