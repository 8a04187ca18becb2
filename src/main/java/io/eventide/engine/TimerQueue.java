package io.eventide.engine;

import java.util.Arrays;

/**
 * Timers ordered by time and then by the order they were set, so that firing order is
 * deterministic. Deleted timers are not removed here: the window's own record of pending timers
 * decides, when one is taken, whether it still counts.
 *
 * <p>Timers go into buckets of {@value #BUCKET_MILLIS} ms of their time, appended in the order they
 * are set; a bucket is sorted only when it is the earliest one and is asked for its first timer. A
 * binary heap over all timers did the same ordering at a cost of about log2(n) scattered reads per
 * timer, and with tens of thousands of pending timers (sessions over 20 000 keys) those reads
 * missed the cache and dominated the engine. Here setting a timer is an append, and taking one is a
 * read from a bucket sorted at once, usually in memory order. Timers that share one time (every
 * window's end in a tumbling window) arrive already sorted and are never sorted at all. A timer
 * costs 10 bytes: its offset within its bucket (a {@code char}), its key and its window.
 */
final class TimerQueue {
  static final int BUCKET_SHIFT = 10;
  static final long BUCKET_MILLIS = 1L << BUCKET_SHIFT;

  /** Non-empty buckets in ascending order of time, from {@link #first}. */
  private Bucket[] buckets = new Bucket[16];

  private int first;
  private int bucketCount;

  /** The bucket the last timer went to: timers set together are mostly near each other. */
  private Bucket recent;

  private int size;

  /**
   * A drained bucket kept for its arrays, so that a new bucket need not grow its own again; only a
   * small one, so that the arrays of a burst (every key's window ending at once) are not held.
   */
  private Bucket spare;

  private static final int SPARE_CAPACITY = 1024;

  /** Scratch for sorting a bucket, reused: where each offset's timers go, then the timers. */
  private final int[] offsetStarts = new int[(int) BUCKET_MILLIS];

  private char[] sortedOffsets = new char[0];
  private KeyState[] sortedKeys = new KeyState[0];
  private WindowState[] sortedWindows = new WindowState[0];

  void push(long time, KeyState key, WindowState window) {
    long id = time >> BUCKET_SHIFT;
    Bucket b = recent != null && recent.id == id ? recent : bucket(id);
    recent = b;
    b.add((char) (time - (id << BUCKET_SHIFT)), key, window);
    size++;
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** The earliest time in the queue; only valid when not empty. */
  long peekTime() {
    Bucket b = front();
    return (b.id << BUCKET_SHIFT) + b.offsets[b.read];
  }

  KeyState peekKey() {
    Bucket b = front();
    return b.keys[b.read];
  }

  WindowState peekWindow() {
    Bucket b = front();
    return b.windows[b.read];
  }

  /** Removes the earliest timer; only valid when not empty. */
  void pop() {
    Bucket b = front();
    b.keys[b.read] = null;
    b.windows[b.read] = null;
    b.read++;
    size--;
    if (b.read == b.size) {
      removeFirstBucket();
    }
  }

  /** The earliest bucket, sorted from its read position on. */
  private Bucket front() {
    Bucket b = buckets[first];
    if (!b.sorted) {
      sort(b);
    }
    return b;
  }

  private void sort(Bucket b) {
    int n = b.size - b.read;
    if (sortedOffsets.length < n) {
      int c = Math.max(n, sortedOffsets.length * 2);
      sortedOffsets = new char[c];
      sortedKeys = new KeyState[c];
      sortedWindows = new WindowState[c];
    }
    // A counting sort by offset, which is stable: equal times keep the order they were set in.
    Arrays.fill(offsetStarts, 0);
    for (int i = b.read; i < b.size; i++) {
      char offset = b.offsets[i];
      if (offset + 1 < offsetStarts.length) {
        offsetStarts[offset + 1]++;
      }
    }
    for (int o = 1; o < offsetStarts.length; o++) {
      offsetStarts[o] += offsetStarts[o - 1];
    }
    for (int i = b.read; i < b.size; i++) {
      int to = offsetStarts[b.offsets[i]]++;
      sortedOffsets[to] = b.offsets[i];
      sortedKeys[to] = b.keys[i];
      sortedWindows[to] = b.windows[i];
    }
    System.arraycopy(sortedOffsets, 0, b.offsets, b.read, n);
    System.arraycopy(sortedKeys, 0, b.keys, b.read, n);
    System.arraycopy(sortedWindows, 0, b.windows, b.read, n);
    Arrays.fill(sortedKeys, 0, n, null);
    Arrays.fill(sortedWindows, 0, n, null);
    b.sorted = true;
  }

  private Bucket bucket(long id) {
    int lo = first;
    int hi = first + bucketCount - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long midId = buckets[mid].id;
      if (midId < id) {
        lo = mid + 1;
      } else if (midId > id) {
        hi = mid - 1;
      } else {
        return buckets[mid];
      }
    }
    Bucket b = spare == null ? new Bucket() : spare;
    spare = null;
    b.id = id;
    return insertBucket(lo, b);
  }

  private Bucket insertBucket(int at, Bucket b) {
    int end = first + bucketCount;
    if (first > 0 && (at == first || end == buckets.length)) {
      // Room in front: shift the earlier buckets down by one.
      System.arraycopy(buckets, first, buckets, first - 1, at - first);
      first--;
      buckets[at - 1] = b;
    } else {
      if (end == buckets.length) {
        buckets = Arrays.copyOf(buckets, buckets.length * 2);
      }
      System.arraycopy(buckets, at, buckets, at + 1, end - at);
      buckets[at] = b;
    }
    bucketCount++;
    return b;
  }

  private void removeFirstBucket() {
    Bucket b = buckets[first];
    if (recent == b) {
      recent = null;
    }
    if (b.offsets.length <= SPARE_CAPACITY) {
      b.read = 0;
      b.size = 0;
      b.sorted = true;
      spare = b;
    }
    buckets[first] = null;
    first++;
    bucketCount--;
    if (bucketCount == 0) {
      first = 0;
    }
  }

  /** The timers of one span of {@link #BUCKET_MILLIS}, in parallel arrays. */
  private static final class Bucket {
    long id;

    /** Each timer's time less the bucket's start. */
    char[] offsets = new char[8];

    KeyState[] keys = new KeyState[8];
    WindowState[] windows = new WindowState[8];

    /** Entries before it were taken. */
    int read;

    int size;

    /** Whether the entries from {@link #read} on are in order of time, then of being set. */
    boolean sorted = true;

    void add(char offset, KeyState key, WindowState window) {
      if (size == offsets.length) {
        makeRoom();
      }
      if (size > read && offset < offsets[size - 1]) {
        sorted = false;
      }
      offsets[size] = offset;
      keys[size] = key;
      windows[size] = window;
      size++;
    }

    /** Drops the entries taken already, or grows by half when they are few. */
    private void makeRoom() {
      int live = size - read;
      if (read < live) {
        int c = offsets.length + (offsets.length >> 1);
        offsets = Arrays.copyOf(offsets, c);
        keys = Arrays.copyOf(keys, c);
        windows = Arrays.copyOf(windows, c);
        return;
      }
      System.arraycopy(offsets, read, offsets, 0, live);
      System.arraycopy(keys, read, keys, 0, live);
      System.arraycopy(windows, read, windows, 0, live);
      Arrays.fill(keys, live, size, null);
      Arrays.fill(windows, live, size, null);
      read = 0;
      size = live;
    }
  }
}
