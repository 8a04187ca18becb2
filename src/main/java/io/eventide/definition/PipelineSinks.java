package io.eventide.definition;

import io.eventide.definition.kafka.KafkaSinkDefinition;

/**
 * The external outputs of a pipeline, besides the in-process ones (SSE, results) every pipeline
 * has.
 *
 * @param kafka the pane topic, or null
 */
public record PipelineSinks(KafkaSinkDefinition kafka) {
  public static final PipelineSinks NONE = new PipelineSinks(null);
}
