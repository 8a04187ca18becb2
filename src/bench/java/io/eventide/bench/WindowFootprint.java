package io.eventide.bench;

import java.lang.ref.Reference;

/**
 * Bytes of live heap per open window: the engine is stopped where W1 has the most windows open, and
 * the heap after GC is compared with the heap holding only the input. The figure therefore includes
 * the keys, timers and accumulators that come with the windows.
 *
 * @param openWindows open windows at the peak
 * @param bytes live heap the engine holds there
 */
record WindowFootprint(int openWindows, long bytes) {

  static WindowFootprint measure(Workload workload, Events events, int batchSize)
      throws InterruptedException {
    Feed feed = Feed.split(events, batchSize, 1)[0];
    int peakBatch = peakBatch(workload, feed, batchSize);
    long baseline = Heap.usedAfterGc();
    WorkloadRun run = new WorkloadRun(workload, feed, batchSize);
    for (int b = 0; b < peakBatch; b++) {
      run.processBatch(b);
      run.advanceWatermarkAfter(b);
    }
    run.processBatch(peakBatch);
    long used = Heap.usedAfterGc();
    int open = run.engine().openWindowCount();
    Reference.reachabilityFence(run);
    return new WindowFootprint(open, used - baseline);
  }

  double bytesPerWindow() {
    return (double) bytes / openWindows;
  }

  /** The batch after which the most windows are open (before the watermark moves on). */
  private static int peakBatch(Workload workload, Feed feed, int batchSize) {
    WorkloadRun probe = new WorkloadRun(workload, feed, batchSize);
    int peakBatch = 0;
    int peak = -1;
    for (int b = 0; b < feed.batchCount(); b++) {
      probe.processBatch(b);
      int open = probe.engine().openWindowCount();
      if (open > peak) {
        peak = open;
        peakBatch = b;
      }
      probe.advanceWatermarkAfter(b);
    }
    return peakBatch;
  }
}
