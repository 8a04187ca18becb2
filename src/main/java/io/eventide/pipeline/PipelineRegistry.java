package io.eventide.pipeline;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Where pipeline definitions are kept, by name. Reactive so that a networked store fits. */
public interface PipelineRegistry {
  /** The definition of {@code name}, or empty. */
  Mono<PipelineDefinition> find(String name);

  /** Every definition, ordered by name. */
  Flux<PipelineDefinition> list();

  /**
   * Stores the definition under its name; emits true when it was new, false when it replaced one.
   */
  Mono<Boolean> put(PipelineDefinition definition);

  /** Removes {@code name}; emits whether there was such a pipeline. */
  Mono<Boolean> delete(String name);
}
