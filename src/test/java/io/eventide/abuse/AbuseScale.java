package io.eventide.abuse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The size of a run of the fault-and-abuse suite and the figures it prints. CI runs scale 1; {@code
 * -Deventide.abuse.scale=N} multiplies what a test builds and sends by N for a longer local run, as
 * {@code eventide.diff.scenarios} sizes the differential test.
 */
final class AbuseScale {
  static final int SCALE = Math.max(1, Integer.getInteger("eventide.abuse.scale", 1));

  private AbuseScale() {}

  static int of(int ciSize) {
    return ciSize * SCALE;
  }

  /** Request durations in milliseconds, safe to add to from several threads. */
  static final class Latencies {
    private final List<Double> millis = Collections.synchronizedList(new ArrayList<>());

    void add(long startedNanos) {
      millis.add((System.nanoTime() - startedNanos) / 1e6);
    }

    int count() {
      return millis.size();
    }

    /** The {@code q} quantile (0 to 1) by the nearest rank, in milliseconds. */
    double quantile(double q) {
      List<Double> sorted;
      synchronized (millis) {
        sorted = new ArrayList<>(millis);
      }
      if (sorted.isEmpty()) {
        return Double.NaN;
      }
      Collections.sort(sorted);
      int rank = (int) Math.ceil(q * sorted.size());
      return sorted.get(Math.max(0, rank - 1));
    }

    /** {@code p50 … ms, p99 … ms (n requests)}, for an "abuse figure" line. */
    String summary() {
      return String.format(
          "p50 %.1f ms, p99 %.1f ms (%d requests)", quantile(0.5), quantile(0.99), count());
    }
  }
}
