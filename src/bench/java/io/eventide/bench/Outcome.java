package io.eventide.bench;

import io.eventide.engine.Timing;

/**
 * What a run emitted.
 *
 * @param panesByTiming pane counts indexed by {@link Timing#ordinal()}
 * @param dropped drop notifications (one per event and window)
 * @param checksum as docs/benchmarks.md defines it
 * @param windowsWithPanes windows that emitted a pane, or -1 when not tracked
 */
public record Outcome(long[] panesByTiming, long dropped, double checksum, long windowsWithPanes) {

  public long panes() {
    long n = 0;
    for (long p : panesByTiming) {
      n += p;
    }
    return n;
  }

  public long panes(Timing timing) {
    return panesByTiming[timing.ordinal()];
  }

  /** The outcome of two shards that own disjoint keys. */
  Outcome plus(Outcome o) {
    long[] p = panesByTiming.clone();
    for (int i = 0; i < p.length; i++) {
      p[i] += o.panesByTiming[i];
    }
    long windows = windowsWithPanes < 0 ? windowsWithPanes : windowsWithPanes + o.windowsWithPanes;
    return new Outcome(p, dropped + o.dropped, checksum + o.checksum, windows);
  }

  /** "early/on-time/late" counts. */
  public String panesByTimingText() {
    return panes(Timing.EARLY) + "/" + panes(Timing.ON_TIME) + "/" + panes(Timing.LATE);
  }
}
