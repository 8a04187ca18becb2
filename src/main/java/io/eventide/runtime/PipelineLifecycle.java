package io.eventide.runtime;

import io.eventide.pipeline.PipelineDefinition;
import io.eventide.pipeline.PipelineRegistry;
import io.eventide.sink.DeadLetterStore;
import io.eventide.sink.PaneHub;
import io.eventide.sink.ResultsStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Defines, redefines and deletes pipelines together with their running state. A redefinition that
 * changes what the engine computes (window, trigger, accumulation, lateness, timestamps, closing or
 * on-time behaviour, aggregate) would make the state it kept meaningless, so it is refused unless
 * the caller asks for a reset, which drops the state explicitly.
 */
@Component
public class PipelineLifecycle {
  private final PipelineRegistry registry;
  private final PipelineRuntimes runtimes;
  private final PaneHub hub;
  private final ResultsStore results;
  private final DeadLetterStore deadLetters;
  private final List<PipelineLifecycleListener> listeners;

  public PipelineLifecycle(
      PipelineRegistry registry,
      PipelineRuntimes runtimes,
      PaneHub hub,
      ResultsStore results,
      DeadLetterStore deadLetters,
      List<PipelineLifecycleListener> listeners) {
    this.registry = registry;
    this.runtimes = runtimes;
    this.hub = hub;
    this.results = results;
    this.deadLetters = deadLetters;
    this.listeners = listeners;
  }

  /**
   * Stores the definition and brings the running state in line.
   *
   * @return true when the pipeline is new
   */
  public Mono<Boolean> define(PipelineDefinition definition, boolean reset) {
    String name = definition.name();
    return Mono.fromRunnable(() -> listeners.forEach(l -> l.check(definition)))
        .then(Mono.defer(() -> registry.find(name)))
        .map(Optional::of)
        .defaultIfEmpty(Optional.empty())
        .flatMap(
            existing -> {
              List<String> changed =
                  existing.map(old -> engineChanges(old, definition)).orElse(List.of());
              boolean running = runtimes.find(name) != null;
              if (running && !changed.isEmpty() && !reset) {
                return Mono.error(
                    new RedefinitionConflictException(
                        name,
                        "pipeline '"
                            + name
                            + "' is running and the change to "
                            + String.join(", ", changed)
                            + " would invalidate its state; repeat with ?reset=true to drop it"));
              }
              return registry
                  .put(definition)
                  .doOnNext(
                      created -> {
                        if (reset || !changed.isEmpty()) {
                          dropState(name);
                        } else if (running) {
                          runtimes.find(name).redefine(definition);
                        }
                        listeners.forEach(l -> l.defined(definition));
                      });
            });
  }

  /** Deletes the definition and everything running for it; emits whether it existed. */
  public Mono<Boolean> delete(String name) {
    return registry
        .delete(name)
        .doOnNext(
            found -> {
              if (found) {
                dropState(name);
                listeners.forEach(l -> l.deleted(name));
              }
            });
  }

  private void dropState(String name) {
    runtimes.stop(name);
    hub.close(name);
    results.clear(name);
    deadLetters.clear(name);
  }

  private static List<String> engineChanges(PipelineDefinition a, PipelineDefinition b) {
    List<String> changed = new ArrayList<>();
    if (!a.window().equals(b.window())) {
      changed.add("window");
    }
    if (!a.trigger().equals(b.trigger())) {
      changed.add("trigger");
    }
    if (!a.aggregate().equals(b.aggregate())) {
      changed.add("aggregate");
    }
    if (a.accumulation() != b.accumulation()) {
      changed.add("accumulation");
    }
    if (!a.allowedLateness().equals(b.allowedLateness())) {
      changed.add("allowedLateness");
    }
    if (a.timestampCombiner() != b.timestampCombiner()) {
      changed.add("timestampCombiner");
    }
    if (a.closingBehavior() != b.closingBehavior()) {
      changed.add("closingBehavior");
    }
    if (a.onTimeBehavior() != b.onTimeBehavior()) {
      changed.add("onTimeBehavior");
    }
    return changed;
  }
}
