package io.eventide.api;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** The defined pipelines as the routes see them: a name that is not defined is a 404. */
@Component
class DefinedPipelines {
  private final PipelineRegistry registry;

  DefinedPipelines(PipelineRegistry registry) {
    this.registry = registry;
  }

  /** The pipeline's definition, or a {@link PipelineNotFoundException}. */
  Mono<PipelineDefinition> named(String name) {
    return registry.find(name).switchIfEmpty(Mono.error(() -> new PipelineNotFoundException(name)));
  }
}
