package io.eventide.engine;

import java.util.Arrays;

/**
 * The windows of one key and the key's own output watermark hold. A key has few open windows at a
 * time, so a small array scanned linearly beats any map.
 */
final class KeyState {
  final String key;
  WindowState[] windows = new WindowState[2];
  int windowCount;

  /**
   * The earliest hold or pending event-time timer over the key's windows, as of the end of the last
   * batch or timer round that touched the key.
   */
  long holdMin = WindowState.NO_HOLD;

  /** Change tracking: settled since the last drain, so listed once to be reported. */
  boolean changed;

  /** Change tracking: the durable store holds this key, so emptying it is to be reported. */
  boolean stored;

  /** Dedupes the key within one batch or timer round. */
  int stamp;

  /**
   * This key's elements in the current batch, as head and tail of a list linked through the
   * engine's shared array, so that a key carries no buffer of its own between batches.
   */
  int batchHead = -1;

  int batchTail = -1;
  int batchCount;

  /** This key's windows activated in the current timer round, linked likewise. */
  int roundHead = -1;

  int roundTail = -1;

  KeyState(String key) {
    this.key = key;
  }

  WindowState find(long start, long end) {
    for (int i = 0; i < windowCount; i++) {
      WindowState w = windows[i];
      if (w.start == start && w.end == end) {
        return w;
      }
    }
    return null;
  }

  WindowState add(WindowState w) {
    if (windowCount == windows.length) {
      windows = Arrays.copyOf(windows, windowCount * 2);
    }
    windows[windowCount++] = w;
    return w;
  }

  void remove(WindowState w) {
    for (int i = 0; i < windowCount; i++) {
      if (windows[i] == w) {
        windows[i] = windows[--windowCount];
        windows[windowCount] = null;
        w.removed = true;
        return;
      }
    }
  }
}
