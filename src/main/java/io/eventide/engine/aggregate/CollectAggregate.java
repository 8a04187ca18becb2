package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;

/** Every element's payload, in arrival order. */
final class CollectAggregate implements Aggregate<ArrayList<Object>> {

  @Override
  public String type() {
    return "collect";
  }

  @Override
  public ArrayList<Object> create() {
    return new ArrayList<>();
  }

  @Override
  public void add(
      ArrayList<Object> acc, double value, Object payload, double volume, long timestamp) {
    acc.add(payload);
  }

  @Override
  public void merge(ArrayList<Object> into, ArrayList<Object> from) {
    into.addAll(from);
  }

  /** A snapshot: the accumulator keeps growing after an early pane has been emitted. */
  @Override
  public Object extract(ArrayList<Object> acc) {
    return Collections.unmodifiableList(new ArrayList<>(acc));
  }

  @Override
  public void write(ArrayList<Object> acc, DataOutput out) throws IOException {
    CompactEncoding.writeUnsigned(acc.size(), out);
    for (Object payload : acc) {
      PlainValueCodec.write(payload, out);
    }
  }

  @Override
  public ArrayList<Object> read(DataInput in) throws IOException {
    int n = CompactEncoding.readCount(in);
    ArrayList<Object> acc = new ArrayList<>(Math.min(n, 256));
    for (int i = 0; i < n; i++) {
      acc.add(PlainValueCodec.read(in));
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
