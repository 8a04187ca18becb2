package io.eventide.state.memory;

import io.eventide.core.KeyedWindow;
import java.util.Arrays;
import java.util.Comparator;

/**
 * One key's windows among the results, in the results' order. A sorted array rather than a tree: a
 * key's windows nearly always join after its last one and leave from its first (the results forget
 * the earliest first), so both ends are cheap, and a commit pays no tree node per pane; a tree per
 * key cost W1 over HTTP about a tenth of the service's time.
 */
final class KeyWindows {
  private KeyedWindow[] windows = new KeyedWindow[2];

  /** The windows are {@code windows[first .. first + size)}. */
  private int first;

  private int size;

  /** Adds {@code w}, which is not here yet. */
  void add(KeyedWindow w, Comparator<KeyedWindow> order) {
    int at = size == 0 || order.compare(w, get(size - 1)) > 0 ? size : position(w, order);
    if (first + size == windows.length) {
      makeRoom();
    }
    System.arraycopy(windows, first + at, windows, first + at + 1, size - at);
    windows[first + at] = w;
    size++;
  }

  /** Removes {@code w} if it is here. */
  void remove(KeyedWindow w, Comparator<KeyedWindow> order) {
    if (size == 0) {
      return;
    }
    if (order.compare(w, windows[first]) == 0) {
      windows[first++] = null;
      size--;
      return;
    }
    int at = position(w, order);
    if (at < size && order.compare(w, get(at)) == 0) {
      System.arraycopy(windows, first + at + 1, windows, first + at, size - at - 1);
      windows[first + --size] = null;
    }
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  KeyedWindow get(int i) {
    return windows[first + i];
  }

  /**
   * The index of the first window not before {@code w} (after it, if {@code inclusive} is false).
   */
  int from(KeyedWindow w, boolean inclusive, Comparator<KeyedWindow> order) {
    int at = position(w, order);
    return !inclusive && at < size && order.compare(get(at), w) == 0 ? at + 1 : at;
  }

  /** The index of the first window not before {@code w}. */
  private int position(KeyedWindow w, Comparator<KeyedWindow> order) {
    int found = Arrays.binarySearch(windows, first, first + size, w, order);
    return (found >= 0 ? found : -found - 1) - first;
  }

  /** Moves the windows to the array's start, or into a larger array when more than half is used. */
  private void makeRoom() {
    KeyedWindow[] to = size * 2 > windows.length ? new KeyedWindow[windows.length * 2] : windows;
    System.arraycopy(windows, first, to, 0, size);
    if (to == windows) {
      Arrays.fill(windows, size, first + size, null);
    }
    windows = to;
    first = 0;
  }
}
