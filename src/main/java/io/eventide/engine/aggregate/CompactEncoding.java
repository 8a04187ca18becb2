package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The primitives of durable window state: varints (7 bits a byte, most significant bit set on every
 * byte but the last), zig-zag varints for signed values, and doubles that cost one or two bytes
 * when they hold a small whole number, as counts, sums and prices mostly do.
 */
public final class CompactEncoding {

  /** A varint of this tag stands for a double written as its eight raw bytes. */
  private static final long RAW_DOUBLE = 1;

  /** Whole doubles below 2^53 in magnitude convert to long and back exactly. */
  private static final double EXACT_INTEGER_LIMIT = 0x1p53;

  private CompactEncoding() {}

  /** Writes {@code value} as an unsigned varint: all 64 bits, so a negative value takes ten. */
  public static void writeUnsigned(long value, DataOutput out) throws IOException {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  public static long readUnsigned(DataInput in) throws IOException {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = in.readUnsignedByte();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IOException("varint longer than ten bytes");
  }

  /** Writes {@code value} zig-zag encoded, so that small negative values stay short too. */
  public static void writeSigned(long value, DataOutput out) throws IOException {
    writeUnsigned((value << 1) ^ (value >> 63), out);
  }

  public static long readSigned(DataInput in) throws IOException {
    long v = readUnsigned(in);
    return (v >>> 1) ^ -(v & 1);
  }

  /** Reads an unsigned varint that must be a non-negative int, such as a length or a count. */
  public static int readCount(DataInput in) throws IOException {
    long n = readUnsigned(in);
    if (n < 0 || n > Integer.MAX_VALUE) {
      throw new IOException("count out of range: " + Long.toUnsignedString(n));
    }
    return (int) n;
  }

  /** Writes {@code value} bit for bit (NaN payloads and -0.0 included). */
  public static void writeDouble(double value, DataOutput out) throws IOException {
    long whole = (long) value;
    boolean negativeZero = Double.doubleToRawLongBits(value) == Long.MIN_VALUE;
    if (whole == value && Math.abs(value) < EXACT_INTEGER_LIMIT && !negativeZero) {
      // An even varint: the zig-zagged whole number shifted left past the raw-double tag.
      writeUnsigned(((whole << 1) ^ (whole >> 63)) << 1, out);
    } else {
      writeUnsigned(RAW_DOUBLE, out);
      out.writeLong(Double.doubleToRawLongBits(value));
    }
  }

  public static double readDouble(DataInput in) throws IOException {
    long v = readUnsigned(in);
    if (v == RAW_DOUBLE) {
      return Double.longBitsToDouble(in.readLong());
    }
    if ((v & 1) != 0) {
      throw new IOException("bad double tag " + v);
    }
    long zigzag = v >>> 1;
    return (double) ((zigzag >>> 1) ^ -(zigzag & 1));
  }

  public static void writeBytes(byte[] bytes, DataOutput out) throws IOException {
    writeUnsigned(bytes.length, out);
    out.write(bytes);
  }

  public static byte[] readBytes(DataInput in) throws IOException {
    byte[] bytes = new byte[readCount(in)];
    in.readFully(bytes);
    return bytes;
  }

  /**
   * Each UTF-16 unit as a varint: one byte for ASCII, at most three otherwise, and exact for every
   * string, lone surrogates included (UTF-8 would replace them; {@link DataOutput#writeUTF} stops
   * at 64 KB).
   */
  public static void writeString(String s, DataOutput out) throws IOException {
    writeUnsigned(s.length(), out);
    for (int i = 0; i < s.length(); i++) {
      writeUnsigned(s.charAt(i), out);
    }
  }

  public static String readString(DataInput in) throws IOException {
    int n = readCount(in);
    StringBuilder s = new StringBuilder(Math.min(n, 256));
    for (int i = 0; i < n; i++) {
      long c = readUnsigned(in);
      if (c > Character.MAX_VALUE) {
        throw new IOException("bad character " + c);
      }
      s.append((char) c);
    }
    return s.toString();
  }
}
