package io.eventide.runtime;

import io.eventide.core.IncomingEvent;
import io.eventide.core.KeyedWindow;
import io.eventide.core.ShardCore;
import io.eventide.core.ShardStep;
import io.eventide.engine.WindowSnapshot;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A {@link ShardCore} on a serial queue of a shared pool: everything the shard owns is reached only
 * from its queue, so its engine needs no locks and shards of one pipeline run in parallel.
 */
final class Shard {
  private final ShardCore core;
  private final SerialExecutor queue;

  Shard(ShardCore core, Executor pool) {
    this.core = core;
    this.queue = new SerialExecutor(pool);
  }

  /** The watermark the engine had reached when the shard was restored; read before any step. */
  long restoredWatermark() {
    return core.inputWatermark();
  }

  CompletableFuture<ShardStep> apply(List<IncomingEvent> events) {
    return submit(() -> core.apply(events));
  }

  CompletableFuture<ShardStep> advanceWatermark(long watermark) {
    return submit(() -> core.advanceWatermark(watermark));
  }

  CompletableFuture<ShardStep> fireProcessingTimers() {
    return submit(core::fireProcessingTimers);
  }

  CompletableFuture<List<WindowSnapshot>> explain(String key, KeyedWindow after, int limit) {
    return submit(() -> core.explain(key, after, limit));
  }

  CompletableFuture<Long> outputWatermark() {
    return submit(core::outputWatermark);
  }

  CompletableFuture<Integer> openWindows() {
    return submit(core::openWindows);
  }

  private <T> CompletableFuture<T> submit(Supplier<T> work) {
    return CompletableFuture.supplyAsync(work, queue);
  }
}
