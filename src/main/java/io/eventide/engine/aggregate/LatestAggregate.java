package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The payload of the element with the greatest event timestamp; on equal timestamps the one added
 * (or merged in) last wins. Null when empty.
 */
final class LatestAggregate implements Aggregate<LatestAggregate.Latest> {

  static final class Latest {
    boolean empty = true;
    long timestamp;
    Object payload;
  }

  @Override
  public String type() {
    return "latest";
  }

  @Override
  public Latest create() {
    return new Latest();
  }

  @Override
  public void add(Latest acc, double value, Object payload, double volume, long timestamp) {
    if (acc.empty || timestamp >= acc.timestamp) {
      acc.empty = false;
      acc.timestamp = timestamp;
      acc.payload = payload;
    }
  }

  @Override
  public void merge(Latest into, Latest from) {
    if (!from.empty) {
      add(into, Double.NaN, from.payload, Double.NaN, from.timestamp);
    }
  }

  @Override
  public Object extract(Latest acc) {
    return acc.payload;
  }

  /** {@code {timestamp, value}}: combining two latest values needs their timestamps. */
  @Override
  public boolean needsPartialToCombine() {
    return true;
  }

  @Override
  public Object partial(Latest acc) {
    Map<String, Object> partial = new LinkedHashMap<>();
    partial.put("timestamp", acc.empty ? null : acc.timestamp);
    partial.put("value", acc.payload);
    return partial;
  }

  @Override
  public void write(Latest acc, DataOutput out) throws IOException {
    out.writeBoolean(acc.empty);
    if (!acc.empty) {
      CompactEncoding.writeSigned(acc.timestamp, out);
      PlainValueCodec.write(acc.payload, out);
    }
  }

  @Override
  public Latest read(DataInput in) throws IOException {
    Latest acc = new Latest();
    acc.empty = in.readBoolean();
    if (!acc.empty) {
      acc.timestamp = CompactEncoding.readSigned(in);
      acc.payload = PlainValueCodec.read(in);
    }
    return acc;
  }

  @Override
  public boolean needsNumber() {
    return false;
  }

  @Override
  public boolean usesPayload() {
    return true;
  }
}
