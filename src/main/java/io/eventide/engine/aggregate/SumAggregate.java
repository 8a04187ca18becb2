package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** The sum of the elements' numbers; 0 when empty. */
final class SumAggregate implements Aggregate<CompensatedSum> {

  @Override
  public String type() {
    return "sum";
  }

  @Override
  public CompensatedSum create() {
    return new CompensatedSum();
  }

  @Override
  public void add(CompensatedSum acc, double value, Object payload, double volume, long timestamp) {
    acc.add(value);
  }

  @Override
  public void merge(CompensatedSum into, CompensatedSum from) {
    into.add(from);
  }

  @Override
  public Object extract(CompensatedSum acc) {
    return OutputNumbers.of(acc.value());
  }

  @Override
  public void write(CompensatedSum acc, DataOutput out) throws IOException {
    acc.write(out);
  }

  @Override
  public CompensatedSum read(DataInput in) throws IOException {
    CompensatedSum acc = new CompensatedSum();
    acc.read(in);
    return acc;
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
