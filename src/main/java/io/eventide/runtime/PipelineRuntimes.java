package io.eventide.runtime;

import io.eventide.config.RuntimeProperties;
import io.eventide.engine.Pane;
import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Time;
import io.eventide.engine.WindowSnapshot;
import io.eventide.pipeline.PipelineDefinition;
import io.eventide.sink.DeadLetter;
import io.eventide.sink.DeadLetterListener;
import io.eventide.sink.PaneListener;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The running pipelines. Shards of every pipeline share one pool of worker threads, and one
 * scheduler thread beats the wall clock for all of them: no thread or task per timer.
 */
@Component
public class PipelineRuntimes implements DisposableBean {
  private final Map<String, PipelineRuntime> running = new ConcurrentHashMap<>();
  private final RuntimeProperties properties;
  private final ProcessingClock clock;
  private final PaneListener panes;
  private final DeadLetterListener deadLetters;
  private final RuntimeObserver observer;
  private final ExecutorService workers;
  private final ScheduledExecutorService beat;

  public PipelineRuntimes(
      RuntimeProperties properties,
      ProcessingClock clock,
      List<PaneListener> paneListeners,
      List<DeadLetterListener> deadLetterListeners,
      List<RuntimeObserver> observers) {
    this.properties = properties;
    this.observer =
        (pipeline, result, nanos) ->
            observers.forEach(o -> o.batchApplied(pipeline, result, nanos));
    this.clock = clock;
    this.panes = fanOut(paneListeners);
    this.deadLetters = fanOutDeadLetters(deadLetterListeners);
    this.workers =
        Executors.newFixedThreadPool(properties.workerCount(), threads("eventide-shard"));
    this.beat = Executors.newSingleThreadScheduledExecutor(threads("eventide-clock"));
    long tick = properties.tick().toMillis();
    beat.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
  }

  /** The runtime of a defined pipeline, started on first use. */
  public PipelineRuntime runtimeOf(PipelineDefinition definition) {
    return running.computeIfAbsent(definition.name(), n -> start(definition));
  }

  public PipelineRuntime find(String name) {
    return running.get(name);
  }

  /** Replaces the runtime of a pipeline with a fresh one, dropping its state. */
  public PipelineRuntime restart(PipelineDefinition definition) {
    PipelineRuntime fresh = start(definition);
    running.put(definition.name(), fresh);
    return fresh;
  }

  /**
   * The open windows of a pipeline; none when it is not running. Reading never starts a runtime, so
   * that a dashboard looking in does not make a later redefinition need a reset.
   */
  public CompletableFuture<List<WindowSnapshot>> explain(String name, String key) {
    PipelineRuntime r = running.get(name);
    return r == null ? CompletableFuture.completedFuture(List.of()) : r.explain(key);
  }

  /** A pipeline's watermarks; a pipeline that is not running is at the beginning of time. */
  public CompletableFuture<WatermarkView> watermark(String name) {
    PipelineRuntime r = running.get(name);
    return r == null
        ? CompletableFuture.completedFuture(
            new WatermarkView(Time.MIN, Time.MIN, clock.now(), List.of()))
        : r.watermark();
  }

  /** Every running pipeline. */
  public java.util.Collection<PipelineRuntime> all() {
    return running.values();
  }

  public void stop(String name) {
    running.remove(name);
  }

  private PipelineRuntime start(PipelineDefinition definition) {
    return new PipelineRuntime(
        definition, properties.shardCount(), workers, clock, panes, deadLetters, observer);
  }

  private void tick() {
    for (PipelineRuntime r : running.values()) {
      try {
        r.tick();
      } catch (RuntimeException e) {
        // One pipeline's failure must not stop the clock for the others.
        org.slf4j.LoggerFactory.getLogger(PipelineRuntimes.class)
            .error("tick failed for {}", r.definition().name(), e);
      }
    }
  }

  @Override
  public void destroy() throws InterruptedException {
    beat.shutdownNow();
    workers.shutdown();
    workers.awaitTermination(30, TimeUnit.SECONDS);
  }

  private static PaneListener fanOut(List<PaneListener> listeners) {
    return (String pipeline, List<Pane> out) -> listeners.forEach(l -> l.onPanes(pipeline, out));
  }

  private static DeadLetterListener fanOutDeadLetters(List<DeadLetterListener> listeners) {
    return (String pipeline, List<DeadLetter> out) ->
        listeners.forEach(l -> l.onDeadLetters(pipeline, out));
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
