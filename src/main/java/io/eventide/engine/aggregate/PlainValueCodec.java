package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the plain values that payloads and pane outputs are made of (see {@link Aggregate}) in
 * durable state: null, {@link Boolean}, {@link String}, {@link Long}, {@link Integer}, {@link
 * Double}, {@link BigInteger}, {@link BigDecimal}, lists and string-keyed maps. A value reads back
 * equal and of the same type (a {@code Long} stays a {@code Long}, a {@code BigDecimal} keeps its
 * scale); lists come back as {@link ArrayList}s and maps as {@link LinkedHashMap}s in their order.
 */
public final class PlainValueCodec {
  private static final int NULL = 0;
  private static final int FALSE = 1;
  private static final int TRUE = 2;
  private static final int STRING = 3;
  private static final int LONG = 4;
  private static final int INTEGER = 5;
  private static final int DOUBLE = 6;
  private static final int BIG_INTEGER = 7;
  private static final int BIG_DECIMAL = 8;
  private static final int LIST = 9;
  private static final int MAP = 10;

  private PlainValueCodec() {}

  /**
   * @throws IllegalArgumentException for a value outside the plain types, or a map key that is not
   *     a string
   */
  public static void write(Object value, DataOutput out) throws IOException {
    if (value == null) {
      out.writeByte(NULL);
    } else if (value instanceof Boolean b) {
      out.writeByte(b ? TRUE : FALSE);
    } else if (value instanceof String s) {
      out.writeByte(STRING);
      CompactEncoding.writeString(s, out);
    } else if (value instanceof Long l) {
      out.writeByte(LONG);
      CompactEncoding.writeSigned(l, out);
    } else if (value instanceof Integer i) {
      out.writeByte(INTEGER);
      CompactEncoding.writeSigned(i, out);
    } else if (value instanceof Double d) {
      out.writeByte(DOUBLE);
      CompactEncoding.writeDouble(d, out);
    } else if (value instanceof BigInteger b) {
      out.writeByte(BIG_INTEGER);
      CompactEncoding.writeBytes(b.toByteArray(), out);
    } else if (value instanceof BigDecimal d) {
      out.writeByte(BIG_DECIMAL);
      CompactEncoding.writeSigned(d.scale(), out);
      CompactEncoding.writeBytes(d.unscaledValue().toByteArray(), out);
    } else if (value instanceof List<?> list) {
      out.writeByte(LIST);
      CompactEncoding.writeUnsigned(list.size(), out);
      for (Object item : list) {
        write(item, out);
      }
    } else if (value instanceof Map<?, ?> map) {
      out.writeByte(MAP);
      CompactEncoding.writeUnsigned(map.size(), out);
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!(e.getKey() instanceof String key)) {
          throw new IllegalArgumentException("map key is not a string: " + e.getKey());
        }
        CompactEncoding.writeString(key, out);
        write(e.getValue(), out);
      }
    } else {
      throw new IllegalArgumentException(
          "not a plain value: " + value.getClass().getName() + " " + value);
    }
  }

  public static Object read(DataInput in) throws IOException {
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case NULL -> null;
      case FALSE -> Boolean.FALSE;
      case TRUE -> Boolean.TRUE;
      case STRING -> CompactEncoding.readString(in);
      case LONG -> CompactEncoding.readSigned(in);
      case INTEGER -> (int) CompactEncoding.readSigned(in);
      case DOUBLE -> CompactEncoding.readDouble(in);
      case BIG_INTEGER -> new BigInteger(CompactEncoding.readBytes(in));
      case BIG_DECIMAL -> readBigDecimal(in);
      case LIST -> readList(in);
      case MAP -> readMap(in);
      default -> throw new IOException("unknown plain value tag " + tag);
    };
  }

  private static BigDecimal readBigDecimal(DataInput in) throws IOException {
    int scale = (int) CompactEncoding.readSigned(in);
    return new BigDecimal(new BigInteger(CompactEncoding.readBytes(in)), scale);
  }

  private static List<Object> readList(DataInput in) throws IOException {
    int n = CompactEncoding.readCount(in);
    List<Object> list = new ArrayList<>(Math.min(n, 256));
    for (int i = 0; i < n; i++) {
      list.add(read(in));
    }
    return list;
  }

  private static Map<String, Object> readMap(DataInput in) throws IOException {
    int n = CompactEncoding.readCount(in);
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = CompactEncoding.readString(in);
      map.put(key, read(in));
    }
    return map;
  }
}
