package io.eventide.bench;

import io.eventide.engine.Timing;
import java.util.Arrays;

/**
 * What a run must emit, worked out from the generated input by a model that shares no code with the
 * engine: plain window arithmetic, the watermark of docs/benchmarks.md per batch, and for sessions
 * a sort. It decides drops (a window is expired once its end minus one plus the allowed lateness is
 * behind the watermark the batch meets), the windows that get panes, and the checksum.
 *
 * @param windows windows that receive at least one event (after merging, for sessions)
 * @param dropped drop notifications
 * @param checksum as docs/benchmarks.md defines it
 */
public record Expectation(Workload workload, long windows, long dropped, double checksum) {

  /** The expectation for {@code events} delivered in batches of {@code batchSize}. */
  public static Expectation of(Workload workload, Events events, int batchSize) {
    Expectation e =
        workload.window().session()
            ? sessions(workload, events, batchSize)
            : slidingOrFixed(workload, events, batchSize);
    if (!workload.checksumOfLastPanes()) {
      double inputChecksum = events.valueSum() * workload.window().windowsPerEvent();
      if (e.dropped != 0 || e.checksum != inputChecksum) {
        throw new IllegalStateException(
            workload
                + " no longer matches docs/benchmarks.md: "
                + e
                + ", input checksum "
                + inputChecksum);
      }
    }
    return e;
  }

  /**
   * Fails loudly unless the outcome agrees. W1, W3 and W4 use the default trigger without late
   * data, so each window emits exactly one on-time pane; W2's early and late panes depend on the
   * trigger state machines, so only its windows and last-pane checksum are checked.
   */
  public void verify(Outcome o) {
    boolean ok = o.dropped() == dropped && o.checksum() == checksum;
    if (workload.checksumOfLastPanes()) {
      ok &= o.windowsWithPanes() == windows && o.panes(Timing.ON_TIME) <= windows;
    } else {
      ok &= o.panes() == windows && o.panes(Timing.ON_TIME) == windows;
    }
    if (!ok) {
      throw new IllegalStateException(
          workload
              + " run is wrong: expected "
              + this
              + " but got panes (early/on-time/late) "
              + o.panesByTimingText()
              + ", windows "
              + o.windowsWithPanes()
              + ", dropped "
              + o.dropped()
              + ", checksum "
              + o.checksum());
    }
  }

  private static Expectation slidingOrFixed(Workload workload, Events events, int batchSize) {
    long size = workload.window().size();
    long period = workload.window().period();
    long lateness = workload.strategy().allowedLateness();
    int perEvent = workload.window().windowsPerEvent();
    long[] ts = events.timestamps();
    long first = Math.floorDiv(Arrays.stream(ts).min().orElse(0), period) - (perEvent - 1);
    int span = (int) (Math.floorDiv(Arrays.stream(ts).max().orElse(0), period) - first + 1);
    double[] sums = new double[workload.keys() * span];
    boolean[] open = new boolean[sums.length];
    long watermark = Long.MIN_VALUE;
    long maxSeen = Long.MIN_VALUE;
    long dropped = 0;
    for (int i = 0; i < events.size(); i++) {
      if (i % batchSize == 0 && i > 0) {
        watermark = maxSeen - Workload.JITTER_MS;
      }
      maxSeen = Math.max(maxSeen, ts[i]);
      long lastStartIndex = Math.floorDiv(ts[i], period);
      for (int w = 0; w < perEvent; w++) {
        long startIndex = lastStartIndex - w;
        long end = startIndex * period + size;
        if (end - 1 + lateness < watermark) {
          dropped++;
          continue;
        }
        int cell = events.keyIds()[i] * span + (int) (startIndex - first);
        sums[cell] += events.values()[i];
        open[cell] = true;
      }
    }
    long windows = 0;
    double checksum = 0;
    for (int c = 0; c < sums.length; c++) {
      if (open[c]) {
        windows++;
        checksum += sums[c];
      }
    }
    return new Expectation(workload, windows, dropped, checksum);
  }

  /**
   * Sessions of one key merge when their windows {@code [ts, ts + gap)} intersect, so a new session
   * starts at the first timestamp at or past the current session's last timestamp plus the gap. The
   * watermark trails every timestamp here (no late data), so nothing is dropped.
   */
  private static Expectation sessions(Workload workload, Events events, int batchSize) {
    long gap = workload.window().size();
    long[] byKeyThenTime = new long[events.size()];
    long watermark = Long.MIN_VALUE;
    long maxSeen = Long.MIN_VALUE;
    long dropped = 0;
    for (int i = 0; i < events.size(); i++) {
      long ts = events.timestamps()[i];
      if (i % batchSize == 0 && i > 0) {
        watermark = maxSeen - Workload.JITTER_MS;
      }
      maxSeen = Math.max(maxSeen, ts);
      if (ts + gap - 1 < watermark) {
        dropped++;
      }
      // 40 bits hold any offset from T0 in these workloads; the key id sorts above them.
      byKeyThenTime[i] = ((long) events.keyIds()[i] << 40) | (ts - Workload.T0 + (1L << 39));
    }
    Arrays.sort(byKeyThenTime);
    long windows = 0;
    long previous = Long.MIN_VALUE;
    for (long v : byKeyThenTime) {
      boolean sameKey = previous != Long.MIN_VALUE && (v >>> 40) == (previous >>> 40);
      if (!sameKey || v >= previous + gap) {
        windows++;
      }
      previous = v;
    }
    return new Expectation(workload, windows, dropped, events.valueSum());
  }
}
