package io.eventide.definition;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Where pipeline definitions are kept, by name. Reactive so that a networked store fits. */
public interface PipelineRegistry {
  /** The definition of {@code name} with its revision, or empty. */
  Mono<PipelineDefinition> find(String name);

  /** Every definition, ordered by name. */
  Flux<PipelineDefinition> list();

  /**
   * Stores {@code next} under its name if the definition stored there is still the one of revision
   * {@code expected} (null: if there is none): a compare-and-set, so that concurrent redefinitions
   * apply one after another. Emits whether it was stored.
   */
  Mono<Boolean> replace(PipelineDefinition next, Revision expected);

  /** Removes {@code name}; emits whether there was such a pipeline. */
  Mono<Boolean> delete(String name);
}
