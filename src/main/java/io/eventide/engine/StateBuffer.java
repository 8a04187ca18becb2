package io.eventide.engine;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * The growable array a key's state is encoded into, reused from key to key. Unlike {@link
 * java.io.ByteArrayOutputStream} its writes take no lock: an encoding writes a byte at a time, and
 * an uncontended lock per byte was a fifth of a Redis commit's encoding.
 */
final class StateBuffer extends OutputStream {
  private byte[] bytes;
  private int size;

  StateBuffer(int capacity) {
    bytes = new byte[capacity];
  }

  @Override
  public void write(int b) {
    if (size == bytes.length) {
      bytes = Arrays.copyOf(bytes, 2 * bytes.length);
    }
    bytes[size++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    if (len > bytes.length - size) {
      bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + len));
    }
    System.arraycopy(b, off, bytes, size, len);
    size += len;
  }

  void reset() {
    size = 0;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }
}
