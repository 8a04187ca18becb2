package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The smallest ({@code min}) or greatest ({@code max}) of the elements' numbers; null when empty.
 */
final class ExtremumAggregate implements Aggregate<ExtremumAggregate.Extremum> {

  static final class Extremum {
    boolean empty = true;
    double value;
  }

  private final boolean greatest;

  private ExtremumAggregate(boolean greatest) {
    this.greatest = greatest;
  }

  static ExtremumAggregate min() {
    return new ExtremumAggregate(false);
  }

  static ExtremumAggregate max() {
    return new ExtremumAggregate(true);
  }

  @Override
  public String type() {
    return greatest ? "max" : "min";
  }

  @Override
  public Extremum create() {
    return new Extremum();
  }

  @Override
  public void add(Extremum acc, double value, Object payload, double volume, long timestamp) {
    if (acc.empty) {
      acc.empty = false;
      acc.value = value;
    } else {
      acc.value = greatest ? Math.max(acc.value, value) : Math.min(acc.value, value);
    }
  }

  @Override
  public void merge(Extremum into, Extremum from) {
    if (!from.empty) {
      add(into, from.value, null, Double.NaN, 0L);
    }
  }

  @Override
  public Object extract(Extremum acc) {
    return acc.empty ? null : OutputNumbers.of(acc.value);
  }

  @Override
  public void write(Extremum acc, DataOutput out) throws IOException {
    out.writeBoolean(acc.empty);
    if (!acc.empty) {
      CompactEncoding.writeDouble(acc.value, out);
    }
  }

  @Override
  public Extremum read(DataInput in) throws IOException {
    Extremum acc = new Extremum();
    acc.empty = in.readBoolean();
    if (!acc.empty) {
      acc.value = CompactEncoding.readDouble(in);
    }
    return acc;
  }

  @Override
  public boolean needsNumber() {
    return true;
  }
}
