package io.eventide.runtime;

import io.eventide.definition.PipelineDefinition;

/**
 * Told about pipelines being defined and deleted, for parts that run beside the runtime (a Kafka
 * event source, say) and for checks a definition's syntax cannot make (is Kafka configured?).
 */
public interface PipelineLifecycleListener {
  /**
   * Refuses a definition this process cannot run, before anything is stored.
   *
   * @throws io.eventide.definition.json.InvalidInputException naming the offending fields
   */
  default void check(PipelineDefinition definition) {}

  /** The definition is stored (new or replaced) and the runtime is in line with it. */
  default void defined(PipelineDefinition definition) {}

  /** The pipeline and its running state are gone. */
  default void deleted(String name) {}
}
