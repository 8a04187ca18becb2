package io.eventide.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the engine keeps its per-key state: a {@link KeyStateMap} in memory. With change tracking
 * on it also records which keys each batch or timer round settled, so that a durable store writes
 * back only those; with it off, that costs nothing.
 */
class KeyStateStore {
  private final KeyStateMap keys = new KeyStateMap();
  private boolean tracking;

  /** The keys settled since the last drain, each once (see {@link KeyState#changed}). */
  private final List<KeyState> changed = new ArrayList<>();

  /**
   * Stored keys emptied since the last drain. A key re-created before the drain takes its old state
   * object back, so that it is listed once and reported as changed, not also as removed.
   */
  private final Map<String, KeyState> emptied = new HashMap<>();

  KeyState get(String key) {
    return keys.get(key);
  }

  KeyState getOrCreate(String key) {
    KeyState k = keys.get(key);
    if (k == null) {
      k = emptied.isEmpty() ? null : emptied.remove(key);
      if (k == null) {
        k = new KeyState(key);
      }
      keys.put(k);
    }
    return k;
  }

  /** Adds a key read back from durable state; the store holds it already. */
  void restored(KeyState k) {
    k.stored(true);
    keys.put(k);
  }

  /**
   * Ends a batch or timer round for {@code k}: records the change when tracking and forgets the key
   * when it has no windows left.
   */
  void settled(KeyState k) {
    if (tracking && !k.changed()) {
      k.changed(true);
      changed.add(k);
    }
    if (!k.hasWindows()) {
      keys.remove(k);
      if (tracking && k.stored()) {
        emptied.put(k.key, k);
      }
    }
  }

  void trackChanges() {
    tracking = true;
  }

  /**
   * Reports each key settled since the last drain: its encoded state while it has windows (as added
   * when the durable store does not hold it yet), its removal when it has none but the store holds
   * it. A key that came and went between two drains is not reported at all.
   */
  void drainChanges(KeyStateCodec codec, KeyStateChanges sink) {
    for (KeyState k : changed) {
      k.changed(false);
      if (k.hasWindows() && k.stored()) {
        sink.changed(k.key, codec.encode(k));
      } else if (k.hasWindows()) {
        k.stored(true);
        sink.added(k.key, codec.encode(k));
      } else if (k.stored()) {
        k.stored(false);
        sink.removed(k.key);
      }
    }
    changed.clear();
    emptied.clear();
  }

  Iterable<KeyState> all() {
    return keys;
  }

  int size() {
    return keys.size();
  }
}
