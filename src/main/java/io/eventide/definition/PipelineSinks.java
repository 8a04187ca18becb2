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

  /**
   * Whether windows that close without a closing pane must be reported, so that a sink sends their
   * last pane again as final.
   */
  public boolean sendFinals() {
    return kafka != null && kafka.finals();
  }
}
