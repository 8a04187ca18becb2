package io.eventide.engine;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Keys to their state by open addressing with linear probing: two parallel arrays of the keys'
 * hashes and states, at most three quarters full. A {@code HashMap} costs a 32-byte node per key on
 * top of its table, and reading a key through it follows one more reference; here a lookup reads
 * the hash array and, on a match, the state it was after anyway.
 */
final class KeyStateMap implements Iterable<KeyState> {
  private int[] hashes = new int[16];
  private KeyState[] states = new KeyState[16];
  private int shift = 32 - 4;
  private int size;

  int size() {
    return size;
  }

  KeyState get(String key) {
    int h = key.hashCode();
    int mask = states.length - 1;
    for (int i = slot(h); ; i = (i + 1) & mask) {
      KeyState k = states[i];
      if (k == null) {
        return null;
      }
      if (hashes[i] == h && (k.key == key || k.key.equals(key))) {
        return k;
      }
    }
  }

  /** Adds a state whose key is not in the map. */
  void put(KeyState k) {
    if (size + 1 > states.length - (states.length >> 2)) {
      grow();
    }
    insert(k.key.hashCode(), k);
    size++;
  }

  /** Removes the state, when it is in the map. */
  void remove(KeyState k) {
    int mask = states.length - 1;
    int i = slot(k.key.hashCode());
    while (states[i] != k) {
      if (states[i] == null) {
        return;
      }
      i = (i + 1) & mask;
    }
    // Backward-shift deletion: move up every later entry of the run that may take the hole.
    for (int j = (i + 1) & mask; states[j] != null; j = (j + 1) & mask) {
      int home = slot(hashes[j]);
      if (((j - home) & mask) >= ((j - i) & mask)) {
        states[i] = states[j];
        hashes[i] = hashes[j];
        i = j;
      }
    }
    states[i] = null;
    size--;
  }

  private int slot(int hash) {
    // Fibonacci hashing: the top bits of the product spread strings' hashes over the table.
    return (hash * 0x9E3779B9) >>> shift;
  }

  private void insert(int h, KeyState k) {
    int mask = states.length - 1;
    int i = slot(h);
    while (states[i] != null) {
      i = (i + 1) & mask;
    }
    states[i] = k;
    hashes[i] = h;
  }

  private void grow() {
    KeyState[] old = states;
    int[] oldHashes = hashes;
    states = new KeyState[old.length * 2];
    hashes = new int[old.length * 2];
    shift--;
    for (int i = 0; i < old.length; i++) {
      if (old[i] != null) {
        insert(oldHashes[i], old[i]);
      }
    }
  }

  @Override
  public Iterator<KeyState> iterator() {
    return new Iterator<>() {
      private int next = advance(0);

      private int advance(int from) {
        int i = from;
        while (i < states.length && states[i] == null) {
          i++;
        }
        return i;
      }

      @Override
      public boolean hasNext() {
        return next < states.length;
      }

      @Override
      public KeyState next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        KeyState k = states[next];
        next = advance(next + 1);
        return k;
      }
    };
  }
}
