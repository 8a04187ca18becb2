package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** The sum of the elements' numbers; 0 when empty. A compensated sum, kept inline. */
final class SumAggregate implements InlineAggregate {

  @Override
  public String type() {
    return "sum";
  }

  @Override
  public void clear(AccumulatorCell cell) {
    cell.first = 0;
    cell.second = 0;
  }

  @Override
  public void add(
      AccumulatorCell acc, double value, Object payload, double volume, long timestamp) {
    CompensatedSum.add(acc, value);
  }

  @Override
  public void merge(AccumulatorCell into, AccumulatorCell from) {
    CompensatedSum.merge(into, from);
  }

  @Override
  public Object extract(AccumulatorCell acc) {
    return OutputNumbers.of(CompensatedSum.value(acc));
  }

  @Override
  public void write(AccumulatorCell acc, DataOutput out) throws IOException {
    CompensatedSum.write(acc, out);
  }

  @Override
  public void readInto(DataInput in, AccumulatorCell cell) throws IOException {
    CompensatedSum.read(in, cell);
  }

  @Override
  public boolean needsNumber() {
    return true;
  }

  @Override
  public boolean additive() {
    return true;
  }
}
