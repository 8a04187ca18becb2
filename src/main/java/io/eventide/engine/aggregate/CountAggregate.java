package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The number of elements, kept inline: a double counts exactly up to 2^53, beyond any window's
 * element count.
 */
final class CountAggregate implements InlineAggregate {

  @Override
  public String type() {
    return "count";
  }

  @Override
  public void clear(AccumulatorCell cell) {
    cell.first = 0;
  }

  @Override
  public void add(
      AccumulatorCell acc, double value, Object payload, double volume, long timestamp) {
    acc.first++;
  }

  @Override
  public void merge(AccumulatorCell into, AccumulatorCell from) {
    into.first += from.first;
  }

  @Override
  public Object extract(AccumulatorCell acc) {
    return (long) acc.first;
  }

  @Override
  public void write(AccumulatorCell acc, DataOutput out) throws IOException {
    CompactEncoding.writeUnsigned((long) acc.first, out);
  }

  @Override
  public void readInto(DataInput in, AccumulatorCell cell) throws IOException {
    cell.first = CompactEncoding.readUnsigned(in);
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
