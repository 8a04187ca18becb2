package io.eventide.state.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A list of strings as one MessagePack array, which commit.lua unpacks with Redis's built-in {@code
 * cmsgpack}. A commit's thousands of panes and key states then travel as a few arguments: the
 * client encodes each argument on its own, and doing so for every item was 7 % of the service's
 * time with Redis state (for Redis, unpacking costs about what the arguments did). One is reused
 * for all of an owner's lists, as its commits are built one after another.
 */
final class PackedStrings {
  /** An array32 header: the marker, then the count, written when the array is done. */
  private static final int HEADER = 5;

  private byte[] bytes;
  private int size = HEADER;
  private int count;

  PackedStrings(int capacity) {
    bytes = new byte[HEADER + capacity];
  }

  /** The list {@code items} adds, packed; the room it took is kept for the next one. */
  byte[] pack(Consumer<PackedStrings> items) {
    size = HEADER;
    count = 0;
    items.accept(this);
    bytes[0] = (byte) 0xdd;
    putInt(1, count);
    return Arrays.copyOf(bytes, size);
  }

  PackedStrings add(byte[] s) {
    header(s.length);
    ensure(s.length);
    System.arraycopy(s, 0, bytes, size, s.length);
    size += s.length;
    return this;
  }

  PackedStrings add(String s) {
    return add(s.getBytes(StandardCharsets.UTF_8));
  }

  /** A number as its decimal digits, as Redis's commands and Lua's {@code tonumber} read it. */
  PackedStrings add(long n) {
    if (n < 0 || n > 9) {
      return add(Long.toString(n).getBytes(StandardCharsets.US_ASCII));
    }
    header(1);
    ensure(1);
    bytes[size++] = (byte) ('0' + n);
    return this;
  }

  private void header(int length) {
    ensure(5);
    count++;
    if (length < 32) {
      bytes[size++] = (byte) (0xa0 | length);
    } else if (length < 1 << 8) {
      bytes[size++] = (byte) 0xd9;
      bytes[size++] = (byte) length;
    } else if (length < 1 << 16) {
      bytes[size++] = (byte) 0xda;
      bytes[size++] = (byte) (length >>> 8);
      bytes[size++] = (byte) length;
    } else {
      bytes[size++] = (byte) 0xdb;
      putInt(size, length);
      size += 4;
    }
  }

  private void putInt(int at, int value) {
    bytes[at] = (byte) (value >>> 24);
    bytes[at + 1] = (byte) (value >>> 16);
    bytes[at + 2] = (byte) (value >>> 8);
    bytes[at + 3] = (byte) value;
  }

  private void ensure(int more) {
    if (more > bytes.length - size) {
      bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + more));
    }
  }
}
