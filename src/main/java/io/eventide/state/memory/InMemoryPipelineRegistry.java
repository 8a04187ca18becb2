package io.eventide.state.memory;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.Revision;
import java.util.concurrent.ConcurrentSkipListMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Keeps definitions in this process: the default, needing no external service. */
public class InMemoryPipelineRegistry implements PipelineRegistry {
  private final ConcurrentSkipListMap<String, PipelineDefinition> pipelines =
      new ConcurrentSkipListMap<>();

  @Override
  public Mono<PipelineDefinition> find(String name) {
    return Mono.fromSupplier(() -> pipelines.get(name));
  }

  @Override
  public Flux<PipelineDefinition> list() {
    return Flux.defer(() -> Flux.fromIterable(pipelines.values()));
  }

  @Override
  public Mono<Boolean> replace(PipelineDefinition next, Revision expected) {
    return Mono.fromSupplier(
        () -> {
          if (expected == null) {
            return pipelines.putIfAbsent(next.name(), next) == null;
          }
          PipelineDefinition current = pipelines.get(next.name());
          return current != null
              && current.revision().equals(expected)
              && pipelines.replace(next.name(), current, next);
        });
  }

  @Override
  public Mono<Boolean> delete(String name) {
    return Mono.fromSupplier(() -> pipelines.remove(name) != null);
  }
}
