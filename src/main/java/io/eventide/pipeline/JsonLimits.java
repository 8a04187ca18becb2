package io.eventide.pipeline;

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
    StreamReadConstraints constraints =
        StreamReadConstraints.builder()
            .maxNestingDepth(maxDepth)
            .maxNumberLength(maxNumberLength)
            .maxStringLength(maxStringLength)
            .build();
    return JsonMapper.builder(JsonFactory.builder().streamReadConstraints(constraints).build())
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
  }
}
