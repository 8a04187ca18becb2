package io.eventide.engine;

/**
 * The windows of one key and the key's own output watermark hold. A key has few open windows at a
 * time, so a list linked through the windows themselves, scanned linearly, beats any map and costs
 * no array of its own.
 *
 * <p>A key is kept to 32 bytes, as there is one per key with open windows: what the engine needs of
 * a key only while a batch or timer round runs lives in the engine's arrays, at {@link
 * #touchIndex}, and the change-tracking flags and {@link #elementHeld} share {@link #mark} with
 * that index.
 */
final class KeyState {
  private static final int CHANGED = 1;
  private static final int STORED = 2;
  private static final int ELEMENT_HELD = 4;
  private static final int FLAGS = CHANGED | STORED | ELEMENT_HELD;
  private static final int INDEX_SHIFT = 3;

  final String key;

  /** The first of the key's windows, in the order they were added; null when it has none. */
  WindowState windows;

  /**
   * The earliest hold or pending event-time timer over the key's windows, as of the end of the last
   * batch or timer round that touched the key.
   */
  long holdMin = WindowState.NO_HOLD;

  /** The change-tracking flags in the low bits, the touch index above them. */
  private int mark;

  KeyState(String key) {
    this.key = key;
  }

  /**
   * Where this key was last listed among the keys a batch or timer round touched. Only meaningful
   * when the engine's list has this key at that index: a stale index points elsewhere.
   */
  int touchIndex() {
    return mark >>> INDEX_SHIFT;
  }

  void touchIndex(int index) {
    mark = (index << INDEX_SHIFT) | (mark & FLAGS);
  }

  /** Change tracking: settled since the last drain, so listed once to be reported. */
  boolean changed() {
    return (mark & CHANGED) != 0;
  }

  void changed(boolean changed) {
    mark = changed ? mark | CHANGED : mark & ~CHANGED;
  }

  /** Change tracking: the durable store holds this key, so emptying it is to be reported. */
  boolean stored() {
    return (mark & STORED) != 0;
  }

  void stored(boolean stored) {
    mark = stored ? mark | STORED : mark & ~STORED;
  }

  /**
   * Whether {@link #holdMin} is an element or extra hold before every pending event-time timer of
   * the key: then no timer touches the key when the input watermark passes it, and the engine's
   * index of held keys must list it (see {@link WatermarkHold#outputWatermark}).
   */
  boolean elementHeld() {
    return (mark & ELEMENT_HELD) != 0;
  }

  void elementHeld(boolean held) {
    mark = held ? mark | ELEMENT_HELD : mark & ~ELEMENT_HELD;
  }

  boolean hasWindows() {
    return windows != null;
  }

  int windowCount() {
    int n = 0;
    for (WindowState w = windows; w != null; w = w.next) {
      n++;
    }
    return n;
  }

  WindowState find(long start, long end) {
    for (WindowState w = windows; w != null; w = w.next) {
      if (w.start == start && w.end == end) {
        return w;
      }
    }
    return null;
  }

  /** Adds the window after the key's others, so that the order survives encoding. */
  WindowState add(WindowState w) {
    w.next = null;
    if (windows == null) {
      windows = w;
    } else {
      WindowState last = windows;
      while (last.next != null) {
        last = last.next;
      }
      last.next = w;
    }
    return w;
  }

  void remove(WindowState w) {
    WindowState previous = null;
    for (WindowState c = windows; c != null; previous = c, c = c.next) {
      if (c == w) {
        if (previous == null) {
          windows = c.next;
        } else {
          previous.next = c.next;
        }
        c.next = null;
        w.markRemoved();
        return;
      }
    }
  }
}
