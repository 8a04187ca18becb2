package io.eventide.engine;

import java.util.Arrays;

/**
 * The active windows being merged into a result, with the finished bits each had before the merge.
 * Reused across merges so that merging allocates nothing per call.
 */
final class MergeSources {
  WindowState[] windows = new WindowState[4];
  long[] finished = new long[4];
  int count;
  boolean resultIsSource;

  void reset() {
    for (int i = 0; i < count; i++) {
      windows[i] = null;
    }
    count = 0;
    resultIsSource = false;
  }

  void add(WindowState w) {
    if (count == windows.length) {
      windows = Arrays.copyOf(windows, count * 2);
      finished = Arrays.copyOf(finished, count * 2);
    }
    windows[count] = w;
    finished[count] = w.finished;
    count++;
  }

  boolean finishedInAny(long bit) {
    for (int i = 0; i < count; i++) {
      if ((finished[i] & bit) != 0) {
        return true;
      }
    }
    return false;
  }

  /** True when every merging window had the bit set; vacuously true when none was active. */
  boolean finishedInAll(long bit) {
    for (int i = 0; i < count; i++) {
      if ((finished[i] & bit) == 0) {
        return false;
      }
    }
    return true;
  }
}
