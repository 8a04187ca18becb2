package io.eventide.runtime;

import io.eventide.engine.DropReason;
import io.eventide.engine.ElementBatch;
import io.eventide.engine.EventTimeEngine;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneOutput;
import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Window;
import io.eventide.engine.WindowFn;
import io.eventide.engine.WindowSnapshot;
import io.eventide.engine.WindowingStrategy;
import io.eventide.engine.aggregate.Aggregate;
import io.eventide.pipeline.Event;
import io.eventide.sink.DeadLetter;
import io.eventide.sink.DeadLetterListener;
import io.eventide.sink.PaneListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * One single-threaded slice of a pipeline's keys: an engine, the ids it has seen, and a serial
 * queue of work. Everything a shard owns is reached only from its queue, so the engine needs no
 * locks; the shard is also the unit that will map to a Kafka partition when Eventide scales out.
 */
final class Shard {
  private final String pipeline;
  private final EventTimeEngine engine;
  private final WindowingStrategy strategy;
  private final SerialExecutor queue;
  private final ProcessingClock clock;
  private final PaneListener panes;
  private final DeadLetterListener deadLetters;
  private final IdTracker ids = new IdTracker();
  private final java.util.Set<String> batchIds = new java.util.HashSet<>();
  private final ElementBatch batch = new ElementBatch(256);
  private final List<Pane> emitted = new ArrayList<>();
  private final long[] starts;
  private final long[] ends;
  private int[] batchToCurrent = new int[256];
  private DropReason[] firstDrop = new DropReason[256];
  private Window[] firstDropWindow = new Window[256];

  Shard(
      String pipeline,
      WindowingStrategy strategy,
      Aggregate<?> aggregate,
      ProcessingClock clock,
      Executor pool,
      PaneListener panes,
      DeadLetterListener deadLetters) {
    this.pipeline = pipeline;
    this.strategy = strategy;
    this.clock = clock;
    this.panes = panes;
    this.deadLetters = deadLetters;
    this.queue = new SerialExecutor(pool);
    this.engine = new EventTimeEngine(strategy, aggregate, clock, new Output());
    WindowFn fn = strategy.windowFn();
    this.starts = new long[fn.maxWindowsPerElement()];
    this.ends = new long[fn.maxWindowsPerElement()];
  }

  CompletableFuture<ShardOutcome> apply(List<IncomingEvent> events) {
    return submit(() -> applyNow(events));
  }

  CompletableFuture<Void> advanceWatermark(long watermark) {
    return submit(
        () -> {
          engine.advanceWatermark(watermark);
          ids.expire(engine.inputWatermark());
          publish();
          return null;
        });
  }

  CompletableFuture<Void> fireProcessingTimers() {
    return submit(
        () -> {
          engine.fireProcessingTimers();
          publish();
          return null;
        });
  }

  CompletableFuture<List<WindowSnapshot>> explain(String key) {
    return submit(() -> engine.explain(key));
  }

  CompletableFuture<Long> outputWatermark() {
    return submit(engine::outputWatermark);
  }

  CompletableFuture<Integer> openWindows() {
    return submit(engine::openWindowCount);
  }

  private <T> CompletableFuture<T> submit(Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, queue);
  }

  private ShardOutcome applyNow(List<IncomingEvent> events) {
    batch.clear();
    if (batchToCurrent.length < events.size()) {
      int c = Math.max(events.size(), batchToCurrent.length * 2);
      batchToCurrent = new int[c];
      firstDrop = new DropReason[c];
      firstDropWindow = new Window[c];
    }
    int duplicates = 0;
    batchIds.clear();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i).event();
      if (e.id() != null && (ids.knows(e.id()) || !batchIds.add(e.id()))) {
        duplicates++;
        continue;
      }
      int b = batch.add(e.key(), e.timestamp(), e.value(), e.payload(), e.volume());
      batchToCurrent[b] = i;
      firstDrop[b] = null;
      firstDropWindow[b] = null;
    }
    engine.processBatch(batch);
    int accepted = 0;
    int late = 0;
    int expired = 0;
    int closed = 0;
    List<DeadLetter> letters = new ArrayList<>();
    long now = clock.now();
    for (int b = 0; b < batch.size(); b++) {
      if (batch.wasAdded(b)) {
        // Only an applied event makes a later one with its id a duplicate; a dropped one can
        // still be sent again, e.g. after its pipeline's lateness was raised.
        Event added = events.get(batchToCurrent[b]).event();
        if (added.id() != null) {
          ids.remember(added.id(), idExpiry(added.timestamp()));
        }
        accepted++;
        if (batch.wasLate(b)) {
          late++;
        }
        continue;
      }
      DropReason reason = firstDrop[b];
      if (reason == DropReason.EXPIRED) {
        expired++;
      } else {
        closed++;
      }
      IncomingEvent in = events.get(batchToCurrent[b]);
      letters.add(
          new DeadLetter(
              pipeline,
              in.raw(),
              reason.wireName(),
              null,
              reason == DropReason.EXPIRED
                  ? "the window is beyond its allowed lateness"
                  : "the window's trigger has finished",
              firstDropWindow[b],
              now));
    }
    Arrays.fill(firstDropWindow, 0, batch.size(), null);
    batch.clear();
    if (!letters.isEmpty()) {
      deadLetters.onDeadLetters(pipeline, letters);
    }
    publish();
    return new ShardOutcome(accepted, late, duplicates, expired, closed);
  }

  /** Ids live as long as the latest window their event went to can change. */
  private long idExpiry(long timestamp) {
    int n = strategy.windowFn().assign(timestamp, starts, ends);
    long maxEnd = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      maxEnd = Math.max(maxEnd, ends[i]);
    }
    return strategy.gcTime(maxEnd - 1);
  }

  private void publish() {
    if (!emitted.isEmpty()) {
      List<Pane> out = List.copyOf(emitted);
      emitted.clear();
      panes.onPanes(pipeline, out);
    }
  }

  private final class Output implements PaneOutput {
    @Override
    public void pane(Pane pane) {
      emitted.add(pane);
    }

    @Override
    public void dropped(int element, Window window, DropReason reason) {
      if (firstDrop[element] == null) {
        firstDrop[element] = reason;
        firstDropWindow[element] = window;
      }
    }
  }
}
