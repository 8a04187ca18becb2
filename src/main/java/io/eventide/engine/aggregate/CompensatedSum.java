package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A running sum with Neumaier compensation. Plain double addition drifts (ten times 0.1 is not 1)
 * and, worse for an engine that merges partial accumulators, depends on how the elements were
 * split; the compensation term keeps the lost low-order bits so both effects vanish in practice.
 */
final class CompensatedSum {
  private double sum;
  private double compensation;

  void add(double x) {
    double t = sum + x;
    if (Math.abs(sum) >= Math.abs(x)) {
      compensation += (sum - t) + x;
    } else {
      compensation += (x - t) + sum;
    }
    sum = t;
  }

  void add(CompensatedSum other) {
    add(other.sum);
    compensation += other.compensation;
  }

  /** Both terms, so that a restored sum goes on adding bit for bit as the original would. */
  void write(DataOutput out) throws IOException {
    CompactEncoding.writeDouble(sum, out);
    CompactEncoding.writeDouble(compensation, out);
  }

  /** Replaces this sum with one written by {@link #write}. */
  void read(DataInput in) throws IOException {
    sum = CompactEncoding.readDouble(in);
    compensation = CompactEncoding.readDouble(in);
  }

  double value() {
    // Once the sum overflows, the compensation is NaN (infinity minus infinity) and meaningless.
    return Double.isFinite(sum) ? sum + compensation : sum;
  }
}
