package io.eventide.engine;

/**
 * Assigns elements to windows. Assignment writes window bounds into caller-owned arrays so that the
 * hot path allocates nothing per element.
 */
public sealed interface WindowFn
    permits WindowFn.Fixed, WindowFn.Sliding, WindowFn.Session, WindowFn.Global, CalendarWindows {

  /** The most windows one element can be assigned to. */
  int maxWindowsPerElement();

  /**
   * Writes the windows of an element at {@code timestamp} into {@code starts}/{@code ends} and
   * returns how many there are.
   */
  int assign(long timestamp, long[] starts, long[] ends);

  /** Whether windows of one key merge (sessions). */
  default boolean isMerging() {
    return false;
  }

  /** Fixed windows of {@code size} ms whose boundaries sit at {@code offset} modulo size. */
  record Fixed(long size, long offset) implements WindowFn {
    public Fixed {
      if (size <= 0) {
        throw new IllegalArgumentException("size must be positive");
      }
      offset = Math.floorMod(offset, size);
    }

    @Override
    public int maxWindowsPerElement() {
      return 1;
    }

    @Override
    public int assign(long timestamp, long[] starts, long[] ends) {
      long start = timestamp - Math.floorMod(timestamp - offset, size);
      starts[0] = start;
      ends[0] = start + size;
      return 1;
    }
  }

  /** Windows of {@code size} ms starting every {@code period} ms (at {@code offset} mod period). */
  record Sliding(long size, long period, long offset) implements WindowFn {
    public Sliding {
      if (size <= 0 || period <= 0) {
        throw new IllegalArgumentException("size and period must be positive");
      }
      offset = Math.floorMod(offset, period);
    }

    @Override
    public int maxWindowsPerElement() {
      return (int) ((size + period - 1) / period);
    }

    @Override
    public int assign(long timestamp, long[] starts, long[] ends) {
      // Latest start at or before the timestamp, then walk back while the window still covers it.
      long lastStart = timestamp - Math.floorMod(timestamp - offset, period);
      int n = 0;
      for (long start = lastStart; start > timestamp - size; start -= period) {
        starts[n] = start;
        ends[n] = start + size;
        n++;
      }
      return n;
    }
  }

  /** Sessions: each element opens {@code [ts, ts + gap)}; intersecting windows of a key merge. */
  record Session(long gap) implements WindowFn {
    public Session {
      if (gap <= 0) {
        throw new IllegalArgumentException("gap must be positive");
      }
    }

    @Override
    public int maxWindowsPerElement() {
      return 1;
    }

    @Override
    public int assign(long timestamp, long[] starts, long[] ends) {
      starts[0] = timestamp;
      ends[0] = timestamp + gap;
      return 1;
    }

    @Override
    public boolean isMerging() {
      return true;
    }
  }

  /** The single global window. */
  record Global() implements WindowFn {
    @Override
    public int maxWindowsPerElement() {
      return 1;
    }

    @Override
    public int assign(long timestamp, long[] starts, long[] ends) {
      starts[0] = Window.GLOBAL.start();
      ends[0] = Window.GLOBAL.end();
      return 1;
    }
  }
}
