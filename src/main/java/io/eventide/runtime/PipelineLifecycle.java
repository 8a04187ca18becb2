package io.eventide.runtime;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.Revision;
import io.eventide.sink.PaneHub;
import io.eventide.state.StateStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Defines, redefines and deletes pipelines together with their running state. A redefinition that
 * changes what the engine computes (window, trigger, accumulation, lateness, timestamps, closing or
 * on-time behaviour, aggregate) would make the state it kept meaningless, so it is refused unless
 * the caller asks for a reset, which drops the state explicitly.
 */
@Component
public class PipelineLifecycle implements DisposableBean {
  /** How long a drop waits for open pane streams to read the old log to its end. */
  private static final Duration STREAMS_FINISH = Duration.ofSeconds(5);

  private static final Logger log = LoggerFactory.getLogger(PipelineLifecycle.class);

  private final PipelineRegistry registry;
  private final RunningPipelines runtimes;
  private final PaneHub hub;
  private final StateStore store;
  private final List<PipelineLifecycleListener> listeners;
  private final Streams streams;
  private final Scheduler followUps =
      Schedulers.fromExecutorService(
          Executors.newSingleThreadExecutor(DaemonThreads.named("eventide-lifecycle")),
          "eventide-lifecycle");

  public PipelineLifecycle(
      PipelineRegistry registry,
      RunningPipelines runtimes,
      PaneHub hub,
      StateStore store,
      List<PipelineLifecycleListener> listeners,
      Streams streams) {
    this.streams = streams;
    this.registry = registry;
    this.runtimes = runtimes;
    this.hub = hub;
    this.store = store;
    this.listeners = listeners;
  }

  /**
   * With durable state, every defined pipeline resumes at start-up, not at its first request: its
   * timers (processing-time ones that came due while the service was down included) fire, and its
   * watermark moves on, by themselves. While the store cannot be read this keeps trying in the
   * background; the service starts anyway, not ready, and requests get 503 meanwhile.
   */
  @EventListener(ApplicationReadyEvent.class)
  public void resumeAll() {
    // In cluster mode partitions resume where they are assigned.
    if (!store.durable() || runtimes.clustered()) {
      return;
    }
    registry
        .list()
        .flatMap(d -> Mono.fromFuture(runtimes.runtimeOf(d)))
        .then()
        .doOnError(
            e -> log.warn("pipelines wait for the state store to resume: {}", e.getMessage()))
        .retryWhen(
            Retry.backoff(Long.MAX_VALUE, Duration.ofSeconds(1)).maxBackoff(Duration.ofSeconds(10)))
        .subscribe();
  }

  /**
   * Stores the definition and brings the running state in line. Concurrent definitions of one
   * pipeline apply one after another: each is checked against the one stored before it, and one
   * that lost the race to store itself is checked again against the winner.
   *
   * @return true when the pipeline is new
   */
  public Mono<Boolean> define(PipelineDefinition definition, boolean reset) {
    // Each repeat follows a definition that another request stored: the service as a whole makes
    // progress, so there is no bound to set.
    return Mono.fromRunnable(() -> listeners.forEach(l -> l.check(definition)))
        .then(streams.checkRoom(definition))
        .then(Mono.defer(() -> defineOnce(definition, reset)).repeatWhenEmpty(repeats -> repeats));
  }

  /** One attempt of {@link #define}: empty when another definition was stored meanwhile. */
  private Mono<Boolean> defineOnce(PipelineDefinition definition, boolean reset) {
    String name = definition.name();
    return registry
        .find(name)
        .map(Optional::of)
        .defaultIfEmpty(Optional.empty())
        .flatMap(
            existing -> {
              List<String> changed =
                  existing.map(old -> engineChanges(old, definition)).orElse(List.of());
              boolean drop = reset || !changed.isEmpty();
              Revision expected = existing.map(PipelineDefinition::revision).orElse(null);
              PipelineDefinition next =
                  definition.withRevision(
                      expected == null ? Revision.UNSTORED.next(true) : expected.next(drop));
              return refuseLosingState(name, changed, reset)
                  .then(registry.replace(next, expected))
                  .filter(stored -> stored)
                  .flatMap(
                      stored ->
                          (drop ? dropState(name) : Mono.<Void>empty())
                              .then(
                                  followUp(
                                      () -> {
                                        if (!drop) {
                                          runtimes.redefine(next);
                                        }
                                        listeners.forEach(l -> l.defined(next));
                                      }))
                              .thenReturn(expected == null));
            });
  }

  /** Fails when a change without reset would invalidate the state the pipeline has. */
  private Mono<Void> refuseLosingState(String name, List<String> changed, boolean reset) {
    if (changed.isEmpty() || reset) {
      return Mono.empty();
    }
    return kept(name)
        .flatMap(
            kept ->
                kept
                    ? Mono.error(
                        new RedefinitionConflictException(
                            name,
                            "pipeline '"
                                + name
                                + "' has state and the change to "
                                + String.join(", ", changed)
                                + " would invalidate it; repeat with ?reset=true to drop it"))
                    : Mono.empty());
  }

  /** Deletes the definition and everything running for it; emits whether it existed. */
  public Mono<Boolean> delete(String name) {
    return registry
        .delete(name)
        .flatMap(
            found ->
                found
                    ? dropState(name)
                        .then(followUp(() -> listeners.forEach(l -> l.deleted(name))))
                        .thenReturn(true)
                    : Mono.just(false));
  }

  /**
   * Runs what follows a stored definition or delete on the lifecycle's own thread: the store's
   * answer arrives on the thread that reads its replies (Lettuce's, with Redis), and a listener may
   * block (stopping a Kafka source waits for its consumer, which may itself wait for a Redis
   * reply), which would hold up every Redis reply of the service meanwhile. One thread, so that
   * follow-ups run in the order their changes were stored.
   */
  private Mono<Void> followUp(Runnable work) {
    return Mono.<Void>fromRunnable(work).subscribeOn(followUps);
  }

  @Override
  public void destroy() {
    followUps.dispose();
  }

  /**
   * Whether a pipeline has state to lose: it runs here, or the store keeps some (another replica
   * runs it, or this process has not resumed it yet).
   */
  private Mono<Boolean> kept(String name) {
    return runtimes.find(name) != null
        ? Mono.just(true)
        : Mono.fromFuture(() -> store.hasState(name), true);
  }

  private Mono<Void> dropState(String name) {
    // Open streams first read the log to its end, for the panes acknowledged before the drop; they
    // end before the pipeline can start again, so none carries a pane of the next one.
    return runtimes.drop(
        name,
        () ->
            hub.finish(name, STREAMS_FINISH)
                .thenCompose(v -> store.drop(name))
                .whenComplete((v, e) -> hub.close(name)));
  }

  private static List<String> engineChanges(PipelineDefinition a, PipelineDefinition b) {
    List<String> changed = new ArrayList<>();
    if (!a.window().equals(b.window())) {
      changed.add("window");
    }
    if (!a.trigger().equals(b.trigger())) {
      changed.add("trigger");
    }
    if (!Objects.equals(a.aggregate(), b.aggregate())) {
      changed.add("aggregate");
    }
    if (!a.aggregates().equals(b.aggregates())) {
      changed.add("aggregates");
    }
    // A plain key may move to another pointer; a composite key's fields name what state holds.
    if ((a.event().keyFields().composite() || b.event().keyFields().composite())
        && !a.event().key().equals(b.event().key())) {
      changed.add("event.key");
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
