package io.eventide.engine.aggregate;

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
  public boolean needsNumber() {
    return false;
  }

  @Override
  public boolean additive() {
    return true;
  }
}
