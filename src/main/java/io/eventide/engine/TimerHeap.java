package io.eventide.engine;

import java.util.Arrays;

/**
 * A binary min-heap of timers in parallel arrays, ordered by time and then by the order they were
 * set, so that firing order is deterministic. Deleted timers are not removed here: the window's own
 * record of pending timers decides, when one is popped, whether it still counts.
 */
final class TimerHeap {
  private long[] times = new long[64];
  private long[] seqs = new long[64];
  private WindowState[] windows = new WindowState[64];
  private KeyState[] keys = new KeyState[64];
  private int size;
  private long nextSeq;

  void push(long time, KeyState key, WindowState window) {
    if (size == times.length) {
      int c = size * 2;
      times = Arrays.copyOf(times, c);
      seqs = Arrays.copyOf(seqs, c);
      windows = Arrays.copyOf(windows, c);
      keys = Arrays.copyOf(keys, c);
    }
    int i = size++;
    long seq = nextSeq++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(time, seq, times[parent], seqs[parent])) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    set(i, time, seq, key, window);
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** The earliest time in the heap; only valid when not empty. */
  long peekTime() {
    return times[0];
  }

  KeyState peekKey() {
    return keys[0];
  }

  WindowState peekWindow() {
    return windows[0];
  }

  void pop() {
    int last = --size;
    long time = times[last];
    long seq = seqs[last];
    KeyState key = keys[last];
    WindowState window = windows[last];
    keys[last] = null;
    windows[last] = null;
    if (last == 0) {
      return;
    }
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= last) {
        break;
      }
      if (child + 1 < last && less(times[child + 1], seqs[child + 1], times[child], seqs[child])) {
        child++;
      }
      if (!less(times[child], seqs[child], time, seq)) {
        break;
      }
      move(child, i);
      i = child;
    }
    set(i, time, seq, key, window);
  }

  private static boolean less(long t1, long s1, long t2, long s2) {
    return t1 < t2 || (t1 == t2 && s1 < s2);
  }

  private void move(int from, int to) {
    times[to] = times[from];
    seqs[to] = seqs[from];
    keys[to] = keys[from];
    windows[to] = windows[from];
  }

  private void set(int i, long time, long seq, KeyState key, WindowState window) {
    times[i] = time;
    seqs[i] = seq;
    keys[i] = key;
    windows[i] = window;
  }
}
