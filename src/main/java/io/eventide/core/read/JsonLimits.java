package io.eventide.core.read;

import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one JSON text from a client may make the parser do: how deep it nests and how long its
 * numbers and strings are. Request bodies, NDJSON lines, Kafka values and the events of the
 * cluster's ingest log are all read under the same limits and the same strictness.
 */
public record JsonLimits(int maxDepth, int maxNumberLength, int maxStringLength) {
  /** The defaults of the properties, for {@code /simulate} and tests. */
  public static final JsonLimits DEFAULT = new JsonLimits(64, 100, 1_000_000);

  /**
   * A mapper that refuses duplicate keys, which would silently override each other, and trailing
   * tokens after the value, within these limits.
   */
  public JsonMapper strictMapper() {
    return builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
  }

  /**
   * The strict mapper for a reader that streams through events and checks their property names
   * itself ({@link PropertyNames}): its trees refuse duplicate keys as they are built, its parsers
   * leave them to the reader. The parser's own check makes a hash set for every object of more than
   * two names, which cost more than the rest of reading a small event.
   */
  JsonMapper eventMapper() {
    return builder().enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY).build();
  }

  private JsonMapper.Builder builder() {
    StreamReadConstraints constraints =
        StreamReadConstraints.builder()
            .maxNestingDepth(maxDepth)
            .maxNumberLength(maxNumberLength)
            .maxStringLength(maxStringLength)
            .build();
    return JsonMapper.builder(JsonFactory.builder().streamReadConstraints(constraints).build())
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  }
}
