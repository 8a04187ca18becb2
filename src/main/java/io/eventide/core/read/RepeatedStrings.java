package io.eventide.core.read;

/**
 * The strings that come back event after event (keys, watermark sources), kept so that reading one
 * again makes no new string and its hash, which routing and the engine's key map both use, is
 * already computed. A fixed table, a newer string replacing an older in its slot: it bounds itself
 * whatever the keys. Safe to share between threads without a lock: a slot holds a whole {@link
 * String} or another, and strings are immutable; a slot's hash, written apart from its string, only
 * decides whether the string is compared, never whether it is taken.
 */
final class RepeatedStrings {
  /** Longer strings are rare as keys and costly to compare; they are made each time. */
  private static final int MAX_LENGTH = 64;

  private final String[] slots;

  /**
   * Each slot's string's hash, so that a string of another slot's key is passed over without
   * reading it: it is rarely in the cache, and comparing with it was most of what a key cost.
   */
  private final int[] hashes;

  RepeatedStrings(int capacity) {
    slots = new String[Integer.highestOneBit(Math.max(16, capacity - 1)) << 1];
    hashes = new int[slots.length];
  }

  /** The string of {@code length} characters at {@code offset}, the kept one when it is there. */
  String of(char[] chars, int offset, int length) {
    if (length > MAX_LENGTH) {
      return new String(chars, offset, length);
    }
    int h = 0;
    for (int i = 0; i < length; i++) {
      h = 31 * h + chars[offset + i];
    }
    int slot = (h ^ (h >>> 16)) & (slots.length - 1);
    if (hashes[slot] == h) {
      String kept = slots[slot];
      if (kept != null && sameAs(kept, chars, offset, length)) {
        return kept;
      }
    }
    String made = new String(chars, offset, length);
    slots[slot] = made;
    hashes[slot] = h;
    return made;
  }

  private static boolean sameAs(String kept, char[] chars, int offset, int length) {
    if (kept.length() != length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (kept.charAt(i) != chars[offset + i]) {
        return false;
      }
    }
    return true;
  }
}
