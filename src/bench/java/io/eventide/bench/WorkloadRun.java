package io.eventide.bench;

import io.eventide.engine.ElementBatch;
import io.eventide.engine.EventTimeEngine;
import io.eventide.engine.Time;
import io.eventide.engine.aggregate.AggregateSpec;
import io.eventide.engine.aggregate.Aggregates;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Feeds one engine its {@link Feed}: each batch, then the watermark after it, then the end of time
 * so that every window fires. Stepwise methods let a probe stop at any batch.
 */
public final class WorkloadRun {
  private final Feed feed;
  private final Tally tally;
  private final EventTimeEngine engine;
  private final ElementBatch batch;

  public WorkloadRun(Workload workload, Feed feed, int batchCapacity) {
    this.feed = feed;
    this.tally = new Tally(workload.checksumOfLastPanes());
    this.engine =
        new EventTimeEngine(
            workload.strategy(), Aggregates.create(AggregateSpec.of("sum")), () -> 0L, tally);
    this.batch = new ElementBatch(batchCapacity);
  }

  /** Runs every shard's feed, each on its own pool thread when there are several. */
  public static Outcome run(Workload workload, Feed[] feeds, int batchSize, ExecutorService pool)
      throws InterruptedException, ExecutionException {
    if (feeds.length == 1) {
      return new WorkloadRun(workload, feeds[0], batchSize).toEnd();
    }
    List<Future<Outcome>> shards = new ArrayList<>();
    for (Feed feed : feeds) {
      shards.add(pool.submit(() -> new WorkloadRun(workload, feed, batchSize).toEnd()));
    }
    Outcome total = shards.get(0).get();
    for (int s = 1; s < shards.size(); s++) {
      total = total.plus(shards.get(s).get());
    }
    return total;
  }

  public Outcome toEnd() {
    for (int b = 0; b < feed.batchCount(); b++) {
      processBatch(b);
      engine.advanceWatermark(feed.watermarkAfter(b));
    }
    engine.advanceWatermark(Time.MAX);
    return tally.outcome();
  }

  /** Hands batch {@code b} to the engine without advancing the watermark after it. */
  public void processBatch(int b) {
    batch.clear();
    for (int i = feed.batchStart(b); i < feed.batchEnd(b); i++) {
      batch.add(feed.key(i), feed.timestamp(i), feed.value(i), null, Double.NaN);
    }
    engine.processBatch(batch);
  }

  public void advanceWatermarkAfter(int b) {
    engine.advanceWatermark(feed.watermarkAfter(b));
  }

  public EventTimeEngine engine() {
    return engine;
  }
}
