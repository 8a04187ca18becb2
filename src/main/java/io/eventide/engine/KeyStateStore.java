package io.eventide.engine;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the engine keeps its per-key state. In memory this is a map; a durable store loads the keys
 * a batch touches and writes back what changed at the batch's end.
 */
class KeyStateStore {
  private final Map<String, KeyState> keys = new HashMap<>();

  KeyState get(String key) {
    return keys.get(key);
  }

  KeyState getOrCreate(String key) {
    KeyState k = keys.get(key);
    if (k == null) {
      k = new KeyState(key);
      keys.put(key, k);
    }
    return k;
  }

  void remove(KeyState key) {
    keys.remove(key.key);
  }

  Collection<KeyState> all() {
    return keys.values();
  }

  int size() {
    return keys.size();
  }
}
