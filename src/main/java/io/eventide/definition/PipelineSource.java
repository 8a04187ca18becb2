package io.eventide.definition;

import io.eventide.definition.kafka.KafkaSourceDefinition;

/**
 * Where a pipeline pulls events from, besides the HTTP ingestion every pipeline has.
 *
 * @param kafka the event topic, or null
 */
public record PipelineSource(KafkaSourceDefinition kafka) {
  public static final PipelineSource NONE = new PipelineSource(null);
}
