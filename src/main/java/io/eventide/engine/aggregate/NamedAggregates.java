package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Several aggregates under names, as one aggregate: its accumulator holds one accumulator per name
 * and its output maps each name to that aggregate's output, in definition order. Each aggregate
 * reads its own lane of an element ({@link #add(Object[], int, double, Object, double, long)}): the
 * engine keeps one value per lane in its batch, so that adding costs no object per element.
 */
public final class NamedAggregates implements Aggregate<Object[]> {
  /** The type name of a pipeline with named aggregates, as the explain view shows it. */
  public static final String TYPE = "named";

  private final String[] names;
  private final Aggregate<Object>[] parts;
  private final boolean additive;

  /**
   * @param names the aggregates' names, distinct, in the order outputs list them
   * @param parts the aggregates, in the order of {@code names}
   */
  @SuppressWarnings("unchecked")
  public NamedAggregates(List<String> names, List<Aggregate<?>> parts) {
    if (names.size() != parts.size() || names.isEmpty()) {
      throw new IllegalArgumentException(
          "one or more names, one per aggregate (got "
              + names.size()
              + " for "
              + parts.size()
              + ")");
    }
    if (names.stream().distinct().count() != names.size()) {
      throw new IllegalArgumentException("aggregate names must be distinct: " + names);
    }
    this.names = names.toArray(String[]::new);
    this.parts = parts.toArray(Aggregate[]::new);
    this.additive = parts.stream().allMatch(Aggregate::additive);
  }

  /** How many aggregates, and so how many lanes an element has. */
  public int size() {
    return names.length;
  }

  public String name(int lane) {
    return names[lane];
  }

  /** The aggregate of lane {@code lane}. */
  public Aggregate<?> part(int lane) {
    return parts[lane];
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Object[] create() {
    Object[] acc = new Object[parts.length];
    for (int i = 0; i < parts.length; i++) {
      acc[i] = parts[i].create();
    }
    return acc;
  }

  /** Adds the same element to every aggregate. */
  @Override
  public void add(Object[] acc, double value, Object payload, double volume, long timestamp) {
    for (int i = 0; i < parts.length; i++) {
      parts[i].add(acc[i], value, payload, volume, timestamp);
    }
  }

  /** Adds one lane of an element to the aggregate of that lane. */
  public void add(
      Object[] acc, int lane, double value, Object payload, double volume, long timestamp) {
    parts[lane].add(acc[lane], value, payload, volume, timestamp);
  }

  @Override
  public void merge(Object[] into, Object[] from) {
    for (int i = 0; i < parts.length; i++) {
      parts[i].merge(into[i], from[i]);
    }
  }

  @Override
  public Object extract(Object[] acc) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < parts.length; i++) {
      out.put(names[i], parts[i].extract(acc[i]));
    }
    return out;
  }

  /**
   * The partials by name of the aggregates that have one (the non-additive ones that can be
   * combined downstream), or null when none has.
   */
  @Override
  public Object partial(Object[] acc) {
    if (additive) {
      return null;
    }
    Map<String, Object> out = null;
    for (int i = 0; i < parts.length; i++) {
      Object partial = parts[i].partial(acc[i]);
      if (partial != null) {
        if (out == null) {
          out = new LinkedHashMap<>();
        }
        out.put(names[i], partial);
      }
    }
    return out;
  }

  /**
   * Each accumulator after its name, so that state read back under other aggregates is refused
   * rather than misread.
   */
  @Override
  public void write(Object[] acc, DataOutput out) throws IOException {
    for (int i = 0; i < parts.length; i++) {
      CompactEncoding.writeString(names[i], out);
      parts[i].write(acc[i], out);
    }
  }

  @Override
  public Object[] read(DataInput in) throws IOException {
    Object[] acc = new Object[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String name = CompactEncoding.readString(in);
      if (!name.equals(names[i])) {
        throw new IOException(
            "aggregate '" + name + "' where this pipeline has '" + names[i] + "'");
      }
      acc[i] = parts[i].read(in);
    }
    return acc;
  }

  /** Whether any aggregate needs a number; each lane is checked for its own. */
  @Override
  public boolean needsNumber() {
    return Arrays.stream(parts).anyMatch(Aggregate::needsNumber);
  }

  @Override
  public boolean usesPayload() {
    return Arrays.stream(parts).anyMatch(Aggregate::usesPayload);
  }

  @Override
  public boolean additive() {
    return additive;
  }

  @Override
  public boolean needsPartialToCombine() {
    return Arrays.stream(parts).anyMatch(Aggregate::needsPartialToCombine);
  }
}
