package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.json.Violations;
import io.eventide.runtime.PipelineLifecycleListener;

/** Refuses pipelines that need Kafka while Eventide runs without it. */
class KafkaNotConfigured implements PipelineLifecycleListener {
  private static final String REASON =
      "Kafka is not configured: start Eventide with eventide.kafka.enabled=true and"
          + " spring.kafka.bootstrap-servers (see docs/kafka.md)";

  @Override
  public void check(PipelineDefinition definition) {
    Violations violations = new Violations();
    if (definition.sinks().kafka() != null) {
      violations.add("/sinks/kafka", REASON);
    }
    if (definition.source().kafka() != null) {
      violations.add("/source/kafka", REASON);
    }
    violations.throwIfAny();
  }
}
