package io.eventide.runtime;

import io.eventide.core.DeadLetter;
import io.eventide.core.IngestBounds;
import io.eventide.core.IngestResult;
import io.eventide.core.KeyedWindow;
import io.eventide.core.LatenessReport;
import io.eventide.core.OutputProgress;
import io.eventide.core.PipelineCore;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Time;
import io.eventide.engine.WindowSnapshot;
import io.eventide.sink.DeadLetterListener;
import io.eventide.sink.PaneListener;
import io.eventide.sink.PublishedPane;
import io.eventide.state.CommitFencedException;
import io.eventide.state.OutputStore;
import io.eventide.state.PipelineState;
import io.eventide.state.StaleLineageException;
import io.eventide.state.StateStore;
import io.eventide.state.StateUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * The running pipelines. Shards of every pipeline share one pool of worker threads, and one
 * scheduler thread beats the wall clock for all of them: no thread or task per timer.
 *
 * <p>A runtime starts from what the state store holds. One whose step or commit failed is replaced
 * by a fresh one read from the store, on its next use or beat, once the store answers: with the
 * memory store, a fresh one with no windows, as after a restart.
 */
@Component
public class RunningPipelines implements DisposableBean, SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(RunningPipelines.class);
  private static final int RETRIES_WHEN_CLOSED = 16;

  /**
   * Each pipeline's runtime, or its start while the store is being read: a start is a future put
   * into the map at once, so that the map's lock is never held while the store answers.
   */
  private final Map<String, CompletableFuture<PipelineRuntime>> running = new ConcurrentHashMap<>();

  private final Set<String> unavailable = ConcurrentHashMap.newKeySet();
  private final Map<String, CompletableFuture<Void>> dropping = new ConcurrentHashMap<>();

  /**
   * Moves on at every reset, delete and redefinition of any pipeline, so that a definition read
   * before one never starts a runtime. One counter for all keeps nothing per deleted pipeline; a
   * start that coincides with another pipeline's change merely reads its definition again.
   */
  private final AtomicLong generation = new AtomicLong();

  private final RuntimeProperties properties;
  private final IngestBounds bounds;
  private final ProcessingClock clock;
  private final PaneListener panes;
  private final DeadLetterListener deadLetters;
  private final RuntimeObserver observer;
  private final StateStore store;
  private final OutputStore outputs;
  private final PipelineRegistry registry;
  private final ExecutorService workers;

  /** The clock's beat while started; a stopped context (a paused test context too) has none. */
  private ScheduledExecutorService beat;

  /**
   * In cluster mode, where requests log what they take for the partitions' owners (no process runs
   * a whole pipeline); null when this process runs whole pipelines.
   */
  private final ClusterIngest cluster;

  private final CommitTracer tracer;

  /** Beaten with the runtimes: the partitions this process owns in cluster mode. */
  private final List<Runnable> beaten = new CopyOnWriteArrayList<>();

  public RunningPipelines(
      RuntimeProperties properties,
      IngestProperties ingest,
      ProcessingClock clock,
      List<PaneListener> paneListeners,
      List<DeadLetterListener> deadLetterListeners,
      List<RuntimeObserver> observers,
      StateStore store,
      OutputStore outputs,
      PipelineRegistry registry,
      ObjectProvider<ClusterIngest> cluster,
      ObjectProvider<CommitTracer> tracer) {
    this.cluster = cluster.getIfAvailable();
    this.tracer = tracer.getIfAvailable(() -> CommitTracer.OFF);
    this.outputs = outputs;
    this.properties = properties;
    this.bounds = ingest.bounds();
    this.store = store;
    this.registry = registry;
    this.observer = new FanOutObserver(observers);
    this.clock = clock;
    this.panes = fanOut(paneListeners);
    this.deadLetters = fanOutDeadLetters(deadLetterListeners);
    this.workers =
        Executors.newFixedThreadPool(
            properties.workerCount(), DaemonThreads.named("eventide-shard"));
  }

  /**
   * A pipeline's runtime, started when it is not running (reading its state from the store) and
   * restarted from the store when a step or commit of it failed. Never blocks.
   *
   * @return fails with {@link StateUnavailableException} when the store cannot be reached, or
   *     {@link RuntimeClosedException} while the pipeline is being reset or deleted
   */
  public CompletableFuture<PipelineRuntime> runtimeOf(PipelineDefinition definition) {
    try {
      return runtimeOf(definition, generation.get());
    } catch (RuntimeClosedException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * Runs a request's {@code work} on a pipeline's runtime, whole: a reset or delete waits for it to
   * finish, and a request that meets a runtime already closing waits for the reset and starts again
   * on the pipeline as it is then, reading its definition anew from {@code definition}, so that it
   * is applied to exactly one generation. A running pipeline is found without asking for its
   * definition, so the hot path makes no round trip but its commit.
   *
   * @param definition the pipeline's current definition, asked for only when it is not running
   */
  public <T> Mono<T> using(
      String name,
      Supplier<Mono<PipelineDefinition>> definition,
      Function<PipelineInput, Mono<T>> work) {
    if (cluster != null) {
      // The registry is read at every request, whatever the caller holds (a Kafka source keeps the
      // definition it started with): a reset on another replica must not leave this one logging
      // under the lineage it replaced, whose records the partitions' owners skip. The caller's
      // definition says what a pipeline the registry lacks means for it.
      return registry
          .find(name)
          .switchIfEmpty(Mono.defer(definition))
          .flatMap(d -> Mono.fromFuture(cluster.input(d), true))
          .flatMap(work);
    }
    return Mono.defer(() -> attempt(name, definition, work))
        .retryWhen(
            Retry.max(RETRIES_WHEN_CLOSED)
                .filter(RuntimeClosedException.class::isInstance)
                .onRetryExhaustedThrow((spec, signal) -> signal.failure()))
        .onErrorResume(
            // A fenced commit is how this replica learns that another one deleted the pipeline:
            // the definition, read again, then says "no such pipeline" (a 404), which is what the
            // request is told rather than "retry later". A pipeline still defined keeps the 503.
            e ->
                CommitFencedException.among(e)
                    ? Mono.defer(definition).then(Mono.error(e))
                    : Mono.error(e));
  }

  private <T> Mono<T> attempt(
      String name,
      Supplier<Mono<PipelineDefinition>> definition,
      Function<PipelineInput, Mono<T>> work) {
    long generation = this.generation.get();
    PipelineRuntime r = find(name);
    Mono<PipelineRuntime> runtime =
        r != null ? Mono.just(r) : definition.get().flatMap(d -> started(d, generation));
    return runtime.flatMap(
        found ->
            found.enter()
                ? work.apply(found).doFinally(signal -> found.exit())
                : Mono.error(new RuntimeClosedException(name)));
  }

  private Mono<PipelineRuntime> started(PipelineDefinition definition, long generation) {
    CompletableFuture<Void> dropping = this.dropping.get(definition.name());
    if (dropping != null) {
      // The definition read may be the one being replaced or deleted: read it again afterwards.
      return Mono.fromFuture(dropping, true)
          .then(Mono.error(new RuntimeClosedException(definition.name())));
    }
    return Mono.defer(() -> Mono.fromFuture(runtimeOf(definition, generation), true));
  }

  private CompletableFuture<PipelineRuntime> runtimeOf(
      PipelineDefinition definition, long generation) {
    String name = definition.name();
    if (dropping.containsKey(name)) {
      throw new RuntimeClosedException(name);
    }
    return running.compute(
        name,
        (n, r) -> {
          if (r != null && !(r.isDone() && failed(r))) {
            return r;
          }
          if (generation != this.generation.get()) {
            // Redefined or reset since the definition was read: it may be stale.
            throw new RuntimeClosedException(name);
          }
          CompletableFuture<PipelineRuntime> started = start(definition);
          // A start for a definition gone meanwhile leaves nothing behind; off the map's lock.
          started.whenCompleteAsync(
              (runtime, error) -> {
                if (error != null && cause(error) instanceof RuntimeClosedException) {
                  running.remove(n, started);
                }
              },
              workers);
          return started;
        });
  }

  /** Whether a finished start failed, or a step or commit of its runtime did. */
  private static boolean failed(CompletableFuture<PipelineRuntime> started) {
    return started.isCompletedExceptionally() || started.join().failed();
  }

  /** The runtime once its start has completed normally; null while starting or when it failed. */
  private static PipelineRuntime started(CompletableFuture<PipelineRuntime> start) {
    return start.isDone() && !start.isCompletedExceptionally() ? start.join() : null;
  }

  /**
   * Hands a definition that computes the same to the running pipeline (see {@link
   * PipelineLifecycle}); a pipeline not running starts with it next time.
   */
  void redefine(PipelineDefinition definition) {
    generation.incrementAndGet();
    CompletableFuture<PipelineRuntime> r = running.get(definition.name());
    if (r != null) {
      // One still starting takes the definition once it has; the registry has it already.
      r.thenAccept(runtime -> runtime.redefine(definition));
    }
  }

  /** Whether the state store keeps what the runtimes apply across a restart. */
  public boolean durable() {
    return store.durable();
  }

  /**
   * Whether this process runs in cluster mode: requests log, and partitions are owned one by one
   * ({@link OwnedPartitions}), so no whole pipeline runs here.
   */
  public boolean clustered() {
    return cluster != null;
  }

  /** A runtime of one partition of a pipeline in cluster mode ({@link OwnedPartitions}). */
  PipelineRuntime partitionRuntime(
      PipelineDefinition definition, PipelineState state, PipelineCore.Partition partition) {
    return new PipelineRuntime(
        definition,
        state,
        true,
        workers,
        clock,
        panes,
        deadLetters,
        observer,
        tracer,
        bounds,
        partition);
  }

  /** Runs {@code beat} on every beat of the clock, as the runtimes are beaten. */
  void onBeat(Runnable beat) {
    beaten.add(beat);
  }

  /** The shared worker pool, for work that must not run on the store client's threads. */
  Executor workers() {
    return workers;
  }

  /** A pipeline's runtime when it is running and healthy, else null. */
  public PipelineRuntime find(String name) {
    CompletableFuture<PipelineRuntime> start = running.get(name);
    PipelineRuntime r = start == null ? null : started(start);
    return r != null && !r.failed() ? r : null;
  }

  /**
   * A page of the open windows of a pipeline (see {@link PipelineRuntime#explain}); none when it is
   * not running. Reading never starts a runtime, so that a dashboard looking in does not make a
   * later redefinition need a reset. In cluster mode, as the partitions' owners last committed
   * them.
   */
  public CompletableFuture<List<WindowSnapshot>> explain(
      PipelineDefinition definition, String key, KeyedWindow after, int limit) {
    if (cluster != null) {
      return cluster.explain(definition, key, after, limit);
    }
    PipelineRuntime r = find(definition.name());
    return r == null ? CompletableFuture.completedFuture(List.of()) : r.explain(key, after, limit);
  }

  /**
   * A pipeline's watermarks; a pipeline that is not running is at the beginning of time. In cluster
   * mode, as its partitions' owners last committed them.
   */
  public CompletableFuture<WatermarkView> watermark(PipelineDefinition definition) {
    if (cluster != null) {
      return cluster.watermark(definition);
    }
    PipelineRuntime r = find(definition.name());
    return r == null
        ? CompletableFuture.completedFuture(
            new WatermarkView(Time.MIN, Time.MIN, clock.now(), List.of()))
        : r.watermark();
  }

  /**
   * How far a pipeline's output has got ({@link OutputStore#progress}), from the store: any replica
   * answers alike. In cluster mode, the least over its partitions, as their owners last committed
   * it.
   */
  public CompletableFuture<OutputProgress> progress(PipelineDefinition definition) {
    if (cluster != null) {
      return cluster.progress(definition);
    }
    return outputs.progress(definition.name()).toFuture();
  }

  /**
   * What a pipeline's events needed of its lateness, from the store: any replica answers alike, as
   * of the owners' last commits of it. In cluster mode, over its partitions.
   */
  public CompletableFuture<LatenessReport> lateness(PipelineDefinition definition) {
    CompletableFuture<List<String>> stored =
        cluster != null
            ? cluster.lateness(definition)
            : outputs.lateness(definition.name()).toFuture();
    return stored.thenApply(LatenessReport::of);
  }

  /** Every running pipeline. */
  public List<PipelineRuntime> all() {
    List<PipelineRuntime> all = new ArrayList<>(running.size());
    for (CompletableFuture<PipelineRuntime> start : running.values()) {
      PipelineRuntime r = started(start);
      if (r != null) {
        all.add(r);
      }
    }
    return all;
  }

  /**
   * Stops a pipeline's runtime and drops its state with {@code drop}: requests in flight finish
   * first, and until the drop completes the pipeline cannot start again, so that no runtime reads
   * state that is half deleted. Completes only once the pipeline can start again, so that a request
   * sent after the reset's answer finds the new generation.
   */
  public Mono<Void> drop(String name, Supplier<CompletableFuture<Void>> drop) {
    return Mono.defer(
        () -> {
          CompletableFuture<Void> done = new CompletableFuture<>();
          CompletableFuture<Void> earlier = dropping.putIfAbsent(name, done);
          if (earlier != null) {
            return Mono.fromFuture(earlier, true).then(drop(name, drop));
          }
          generation.incrementAndGet();
          CompletableFuture<PipelineRuntime> r = running.remove(name);
          Runnable finish =
              () -> {
                dropping.remove(name, done);
                done.complete(null);
              };
          // A start still reading the store is waited for, so that nothing it writes (its epoch)
          // lands after the drop; a start that failed has nothing to close.
          CompletableFuture<Void> closed =
              r == null
                  ? CompletableFuture.completedFuture(null)
                  : r.handle((runtime, error) -> runtime)
                      .thenCompose(
                          runtime ->
                              runtime == null
                                  ? CompletableFuture.completedFuture(null)
                                  : runtime.close());
          return Mono.fromFuture(closed.thenCompose(v -> drop.get()), true)
              .doOnTerminate(finish)
              .doOnCancel(finish);
        });
  }

  private CompletableFuture<PipelineRuntime> start(PipelineDefinition definition) {
    String name = definition.name();
    String lineage = definition.revision().lineage();
    return opened(name, lineage)
        .thenCompose(state -> stillDefined(name, lineage, state))
        // Restoring decodes every key: off the store client's I/O thread.
        .thenApplyAsync(
            opened ->
                new PipelineRuntime(
                    opened.definition(),
                    opened.state(),
                    store.durable(),
                    workers,
                    clock,
                    panes,
                    deadLetters,
                    observer,
                    tracer,
                    bounds),
            workers)
        .whenComplete(
            (runtime, error) -> {
              if (error == null) {
                if (unavailable.remove(name)) {
                  log.info("pipeline {} resumed from the state store", name);
                }
              } else if (!(cause(error) instanceof RuntimeClosedException)
                  && unavailable.add(name)) {
                // Said once per outage, not every beat; the beat keeps trying.
                log.warn("pipeline {} waits for the state store: {}", name, error.getMessage());
              }
            });
  }

  /**
   * Opens a pipeline's state for a lineage of its definition. State of another lineage is left over
   * from a pipeline the registry no longer has (a reset or delete stopped half way, or a runtime of
   * a deleted pipeline reopened it before it saw the delete): when the lineage asked for is the
   * registry's, it is dropped and opened afresh.
   */
  private CompletableFuture<PipelineState> opened(String name, String lineage) {
    int shards = properties.shardCount();
    return store
        .open(name, lineage, shards)
        .exceptionallyCompose(
            error ->
                cause(error) instanceof StaleLineageException
                    ? registry
                        .find(name)
                        .toFuture()
                        .thenCompose(
                            current -> {
                              if (current == null
                                  || !current.revision().lineage().equals(lineage)) {
                                throw new RuntimeClosedException(name);
                              }
                              return store
                                  .drop(name)
                                  .thenCompose(v -> store.open(name, lineage, shards));
                            })
                    : CompletableFuture.failedFuture(error));
  }

  /**
   * The registry's definition of the lineage the state was opened for, read after the open: a
   * pipeline deleted or reset before that is seen here, and one deleted after it has its state
   * dropped after the open, which fences this owner. The open is undone when the lineage is gone,
   * so that a runtime of a deleted pipeline never brings it back.
   */
  private CompletableFuture<Opened> stillDefined(String name, String lineage, PipelineState state) {
    return registry
        .find(name)
        .toFuture()
        .thenCompose(
            current ->
                current != null && current.revision().lineage().equals(lineage)
                    ? CompletableFuture.completedFuture(new Opened(current, state))
                    : state
                        .release()
                        .thenCompose(
                            v ->
                                CompletableFuture.<Opened>failedFuture(
                                    new RuntimeClosedException(name))));
  }

  /** State opened, with the definition the registry holds for it. */
  private record Opened(PipelineDefinition definition, PipelineState state) {}

  private static Throwable cause(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }

  /**
   * Beats every pipeline. One whose step or commit failed is restarted from the store in the
   * background and beaten once it has started, so that no pipeline's store trouble holds up the
   * clock of the others.
   */
  private void tick() {
    for (Runnable b : beaten) {
      try {
        b.run();
      } catch (RuntimeException e) {
        log.error("a beat failed", e);
      }
    }
    for (PipelineRuntime r : all()) {
      try {
        if (r.failed()) {
          restart(r);
        } else {
          r.tick();
        }
      } catch (RuntimeException e) {
        // One pipeline's failure must not stop the clock for the others.
        log.error("tick failed for {}", r.definition().name(), e);
      }
    }
  }

  /**
   * Restarts a failed runtime from the store, once the registry says its definition still stands. A
   * runtime also fails when another replica deleted or reset its pipeline (its commit was fenced):
   * opening it again would write the state of a pipeline that is gone, if only until the open is
   * undone, so a runtime whose lineage the registry no longer has is forgotten instead.
   */
  private void restart(PipelineRuntime failed) {
    PipelineDefinition definition = failed.definition();
    String name = definition.name();
    registry
        .find(name)
        .toFuture()
        .thenCompose(
            current -> {
              if (current != null
                  && current.revision().lineage().equals(definition.revision().lineage())) {
                return runtimeOf(definition);
              }
              running.computeIfPresent(name, (n, start) -> started(start) == failed ? null : start);
              return CompletableFuture.<PipelineRuntime>failedFuture(
                  new RuntimeClosedException(name));
            })
        .thenAccept(PipelineRuntime::tick);
  }

  /**
   * Stops the beat once requests have drained and before the state store's connections close, so
   * that no timer fires into a store that is going away.
   */
  @Override
  public synchronized void stop() {
    if (beat != null) {
      beat.shutdownNow();
      beat = null;
    }
  }

  @Override
  public synchronized void start() {
    if (beat == null) {
      long tick = properties.tick().toMillis();
      beat = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("eventide-clock"));
      beat.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return beat != null;
  }

  @Override
  public int getPhase() {
    // After the web server's graceful shutdown (which stops at a higher phase), before Lettuce's
    // connection factory (phase 0).
    return 1000;
  }

  @Override
  public void destroy() throws InterruptedException {
    stop();
    workers.shutdown();
    workers.awaitTermination(30, TimeUnit.SECONDS);
  }

  /** Tells every observer, in order. */
  private record FanOutObserver(List<RuntimeObserver> observers) implements RuntimeObserver {
    @Override
    public void batchApplied(String pipeline, IngestResult result, long nanos) {
      observers.forEach(o -> o.batchApplied(pipeline, result, nanos));
    }

    @Override
    public void committed(String pipeline, long nanos) {
      observers.forEach(o -> o.committed(pipeline, nanos));
    }

    @Override
    public void commitFailed(String pipeline) {
      observers.forEach(o -> o.commitFailed(pipeline));
    }
  }

  private static PaneListener fanOut(List<PaneListener> listeners) {
    return (String pipeline, List<PublishedPane> out) ->
        listeners.forEach(l -> l.onPanes(pipeline, out));
  }

  private static DeadLetterListener fanOutDeadLetters(List<DeadLetterListener> listeners) {
    return (String pipeline, List<DeadLetter> out) ->
        listeners.forEach(l -> l.onDeadLetters(pipeline, out));
  }
}
