package io.eventide.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/** Heap readings through the platform MXBeans. */
final class Heap {
  private Heap() {}

  /**
   * Used heap once garbage is gone. One System.gc() can leave objects that only became unreachable
   * during it (finalizable or softly reachable), so settle with a few.
   */
  static long usedAfterGc() throws InterruptedException {
    for (int i = 0; i < 4; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  /**
   * The sum of each heap pool's peak since {@link #resetPeaks()}, garbage included. Pools peak at
   * different moments, so this is an upper bound on the heap in use at any one time.
   */
  static long peakSum() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
