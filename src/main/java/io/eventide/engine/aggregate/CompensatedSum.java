package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A running sum with Neumaier compensation. Plain double addition drifts (ten times 0.1 is not 1)
 * and, worse for an engine that merges partial accumulators, depends on how the elements were
 * split; the compensation term keeps the lost low-order bits so both effects vanish in practice.
 *
 * <p>The sum is the cell's first number and the compensation its second; the static methods work on
 * any cell, so that a sum kept inline in a window adds exactly as this object does.
 */
final class CompensatedSum extends AccumulatorCell {

  void add(double x) {
    add(this, x);
  }

  void add(CompensatedSum other) {
    merge(this, other);
  }

  /** Both terms, so that a restored sum goes on adding bit for bit as the original would. */
  void write(DataOutput out) throws IOException {
    write(this, out);
  }

  /** Replaces this sum with one written by {@link #write}. */
  void read(DataInput in) throws IOException {
    read(in, this);
  }

  double value() {
    return value(this);
  }

  static void add(AccumulatorCell c, double x) {
    double sum = c.first;
    double t = sum + x;
    if (Math.abs(sum) >= Math.abs(x)) {
      c.second += (sum - t) + x;
    } else {
      c.second += (x - t) + sum;
    }
    c.first = t;
  }

  static void merge(AccumulatorCell into, AccumulatorCell from) {
    add(into, from.first);
    into.second += from.second;
  }

  static void write(AccumulatorCell c, DataOutput out) throws IOException {
    CompactEncoding.writeDouble(c.first, out);
    CompactEncoding.writeDouble(c.second, out);
  }

  static void read(DataInput in, AccumulatorCell c) throws IOException {
    c.first = CompactEncoding.readDouble(in);
    c.second = CompactEncoding.readDouble(in);
  }

  static double value(AccumulatorCell c) {
    // Once the sum overflows, the compensation is NaN (infinity minus infinity) and meaningless.
    return Double.isFinite(c.first) ? c.first + c.second : c.first;
  }
}
