package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The arithmetic mean of the elements' numbers; null when empty. */
final class MeanAggregate implements Aggregate<MeanAggregate.SumAndCount> {

  static final class SumAndCount {
    final CompensatedSum sum = new CompensatedSum();
    long count;
  }

  @Override
  public String type() {
    return "mean";
  }

  @Override
  public SumAndCount create() {
    return new SumAndCount();
  }

  @Override
  public void add(SumAndCount acc, double value, Object payload, double volume, long timestamp) {
    acc.sum.add(value);
    acc.count++;
  }

  @Override
  public void merge(SumAndCount into, SumAndCount from) {
    into.sum.add(from.sum);
    into.count += from.count;
  }

  @Override
  public Object extract(SumAndCount acc) {
    return acc.count == 0 ? null : OutputNumbers.of(acc.sum.value() / acc.count);
  }

  /** {@code {sum, count}}: means cannot be averaged, but their sums and counts add up. */
  @Override
  public boolean needsPartialToCombine() {
    return true;
  }

  @Override
  public Object partial(SumAndCount acc) {
    Map<String, Object> partial = new LinkedHashMap<>();
    partial.put("sum", OutputNumbers.of(acc.sum.value()));
    partial.put("count", acc.count);
    return partial;
  }

  @Override
  public void write(SumAndCount acc, DataOutput out) throws IOException {
    acc.sum.write(out);
    CompactEncoding.writeUnsigned(acc.count, out);
  }

  @Override
  public SumAndCount read(DataInput in) throws IOException {
    SumAndCount acc = new SumAndCount();
    acc.sum.read(in);
    acc.count = CompactEncoding.readUnsigned(in);
    return acc;
  }

  @Override
  public boolean needsNumber() {
    return true;
  }
}
