package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** The number of elements. */
final class CountAggregate implements Aggregate<CountAggregate.Counter> {

  static final class Counter {
    long count;
  }

  @Override
  public String type() {
    return "count";
  }

  @Override
  public Counter create() {
    return new Counter();
  }

  @Override
  public void add(Counter acc, double value, Object payload, double volume, long timestamp) {
    acc.count++;
  }

  @Override
  public void merge(Counter into, Counter from) {
    into.count += from.count;
  }

  @Override
  public Object extract(Counter acc) {
    return acc.count;
  }

  @Override
  public void write(Counter acc, DataOutput out) throws IOException {
    CompactEncoding.writeUnsigned(acc.count, out);
  }

  @Override
  public Counter read(DataInput in) throws IOException {
    Counter acc = new Counter();
    acc.count = CompactEncoding.readUnsigned(in);
    return acc;
  }

  @Override
  public boolean needsNumber() {
    return false;
  }

  @Override
  public boolean additive() {
    return true;
  }
}
