package io.eventide.bench;

import io.eventide.engine.AccumulationMode;
import io.eventide.engine.Trigger;
import io.eventide.engine.WindowFn;
import io.eventide.engine.WindowingStrategy;
import java.util.SplittableRandom;

/**
 * The workloads W1–W4 and their generator G, as docs/benchmarks.md ("The workloads") states them.
 * Other engines follow the same recipe, so the draws and their order must not change: checksums are
 * compared across engines.
 */
public enum Workload {
  W1(10_000, 0, 0, 0, WindowShape.fixed(60_000), false),
  W2(100, 0.01, 60_000, 600_000, WindowShape.fixed(60_000), true),
  W3(20_000, 0, 0, 0, WindowShape.session(30_000), false),
  W4(10_000, 0, 0, 0, WindowShape.sliding(600_000, 60_000), false);

  /** Events per workload in the published figures. */
  public static final int FULL_N = 2_000_000;

  /** 2026-01-01T00:00:00Z. */
  public static final long T0 = 1_767_225_600_000L;

  public static final long SPAN_MS = 3_600_000;
  public static final long JITTER_MS = 5_000;
  private static final long SEED = 42;

  private final int keys;
  private final double lateFraction;
  private final long lateMinMs;
  private final long lateMaxMs;
  private final WindowShape window;
  private final boolean dashboard;

  Workload(
      int keys,
      double lateFraction,
      long lateMinMs,
      long lateMaxMs,
      WindowShape window,
      boolean dashboard) {
    this.keys = keys;
    this.lateFraction = lateFraction;
    this.lateMinMs = lateMinMs;
    this.lateMaxMs = lateMaxMs;
    this.window = window;
    this.dashboard = dashboard;
  }

  public int keys() {
    return keys;
  }

  public WindowShape window() {
    return window;
  }

  /**
   * Whether the checksum is the sum of each window's last pane (W2, accumulating with early and
   * late firings) rather than of every pane.
   */
  public boolean checksumOfLastPanes() {
    return dashboard;
  }

  public WindowingStrategy strategy() {
    WindowingStrategy s = WindowingStrategy.of(window.fn());
    if (!dashboard) {
      return s;
    }
    return s.withTrigger(
            new Trigger.AfterWatermark(new Trigger.AfterCount(100), new Trigger.AfterCount(1)))
        .withAllowedLateness(300_000)
        .withMode(AccumulationMode.ACCUMULATING);
  }

  /** Generator G with this workload's parameters and {@code n} events. */
  public Events generate(int n) {
    String[] names = new String[keys];
    for (int k = 0; k < keys; k++) {
      names[k] = "k" + k;
    }
    int[] keyIds = new int[n];
    long[] timestamps = new long[n];
    double[] values = new double[n];
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int i = 0; i < n; i++) {
      long base = T0 + ((long) i * SPAN_MS) / n;
      keyIds[i] = rnd.nextInt(keys);
      values[i] = rnd.nextInt(100);
      long ts = base - rnd.nextLong(JITTER_MS + 1);
      if (lateFraction > 0 && rnd.nextDouble() < lateFraction) {
        ts = base - lateMinMs - rnd.nextLong(lateMaxMs - lateMinMs + 1);
      }
      timestamps[i] = ts;
    }
    return new Events(names, keyIds, timestamps, values);
  }

  /**
   * A workload's windows, described by numbers so that the expectation can place events in windows
   * without the engine's own assignment code.
   *
   * @param size window length, or the gap for sessions
   * @param period distance between window starts (equal to size for fixed windows)
   */
  public record WindowShape(long size, long period, boolean session) {
    static WindowShape fixed(long size) {
      return new WindowShape(size, size, false);
    }

    static WindowShape sliding(long size, long period) {
      return new WindowShape(size, period, false);
    }

    static WindowShape session(long gap) {
      return new WindowShape(gap, 0, true);
    }

    /** How many windows one event lands in (before any merging). */
    public int windowsPerEvent() {
      return session ? 1 : (int) (size / period);
    }

    WindowFn fn() {
      if (session) {
        return new WindowFn.Session(size);
      }
      return size == period ? new WindowFn.Fixed(size, 0) : new WindowFn.Sliding(size, period, 0);
    }
  }
}
