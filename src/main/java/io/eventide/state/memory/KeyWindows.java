package io.eventide.state.memory;

import io.eventide.core.KeyedWindow;

/**
 * One key's windows among the results, by start and then end: the results' order within a key. A
 * sorted pair of arrays rather than a tree: a key's windows nearly always join after its last one
 * and leave from its first (the results forget the earliest first), so both ends are cheap, and a
 * commit pays no tree node per pane; a tree per key cost W1 over HTTP about a tenth of the
 * service's time. Times rather than the windows themselves: a commit then stores no reference into
 * these long-lived arrays, which would make the collector track (card-mark and scan at every young
 * collection) one more old-to-young pointer per pane; with references, W1 over HTTP ran about a
 * tenth slower than with no index at all.
 */
final class KeyWindows {
  private final String key;
  private long[] starts = new long[2];
  private long[] ends = new long[2];

  /** The windows are at {@code [first .. first + size)}. */
  private int first;

  private int size;

  KeyWindows(String key) {
    this.key = key;
  }

  /** Adds {@code [start, end)}, which is not here yet. */
  void add(long start, long end) {
    int at = size == 0 || compare(start, end, size - 1) > 0 ? size : position(start, 0, end);
    if (first + size == starts.length) {
      makeRoom();
    }
    int i = first + at;
    System.arraycopy(starts, i, starts, i + 1, size - at);
    System.arraycopy(ends, i, ends, i + 1, size - at);
    starts[i] = start;
    ends[i] = end;
    size++;
  }

  /** Removes {@code [start, end)} if it is here. */
  void remove(long start, long end) {
    if (size == 0) {
      return;
    }
    if (compare(start, end, 0) == 0) {
      first++;
      size--;
      return;
    }
    int at = position(start, 0, end);
    if (at < size && compare(start, end, at) == 0) {
      int i = first + at;
      System.arraycopy(starts, i + 1, starts, i, size - at - 1);
      System.arraycopy(ends, i + 1, ends, i, size - at - 1);
      size--;
    }
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  KeyedWindow get(int i) {
    return new KeyedWindow(key, starts[first + i], ends[first + i]);
  }

  /**
   * The index of the first window not before {@code w} in the results' order (start, key, end),
   * whatever {@code w}'s key (after it, if {@code inclusive} is false).
   */
  int from(KeyedWindow w, boolean inclusive) {
    int byKey = Integer.signum(w.key().compareTo(key));
    int at = position(w.start(), byKey, w.end());
    return !inclusive && at < size && byKey == 0 && compare(w.start(), w.end(), at) == 0
        ? at + 1
        : at;
  }

  /**
   * The index of the first window not before the window at {@code start} and {@code end} of a key
   * that compares to this one as {@code byKey} does.
   */
  private int position(long start, int byKey, long end) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long s = starts[first + mid];
      int c =
          start != s
              ? Long.compare(start, s)
              : byKey != 0 ? byKey : Long.compare(end, ends[first + mid]);
      if (c > 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private int compare(long start, long end, int i) {
    int c = Long.compare(start, starts[first + i]);
    return c != 0 ? c : Long.compare(end, ends[first + i]);
  }

  /** Moves the windows to the arrays' start, or into larger arrays when more than half is used. */
  private void makeRoom() {
    int length = size * 2 > starts.length ? starts.length * 2 : starts.length;
    long[] toStarts = length == starts.length ? starts : new long[length];
    long[] toEnds = length == ends.length ? ends : new long[length];
    System.arraycopy(starts, first, toStarts, 0, size);
    System.arraycopy(ends, first, toEnds, 0, size);
    starts = toStarts;
    ends = toEnds;
    first = 0;
  }
}
