package io.eventide.engine;

import java.util.Arrays;

/**
 * A reusable, columnar batch of elements: one HTTP request, one Kafka poll, or one {@code events}
 * step of a simulation. Columns avoid an object per element on the hot path.
 */
public final class ElementBatch {
  private static final byte NOT_ADDED = 0;
  private static final byte ADDED = 1;
  private static final byte ADDED_LATE = 2;

  private String[] keys;
  private long[] timestamps;
  private double[] values;
  private Object[] payloads;
  private double[] volumes;
  private byte[] outcomes;
  private int size;

  public ElementBatch(int initialCapacity) {
    int c = Math.max(1, initialCapacity);
    keys = new String[c];
    timestamps = new long[c];
    values = new double[c];
    payloads = new Object[c];
    volumes = new double[c];
    outcomes = new byte[c];
  }

  /**
   * Appends an element and returns its index in the batch.
   *
   * @param value NaN when the element has no number
   * @param payload the value as plain Java objects, or null when the aggregate does not need it
   * @param volume NaN when absent
   */
  public int add(String key, long timestamp, double value, Object payload, double volume) {
    if (size == keys.length) {
      int c = size * 2;
      keys = Arrays.copyOf(keys, c);
      timestamps = Arrays.copyOf(timestamps, c);
      values = Arrays.copyOf(values, c);
      payloads = Arrays.copyOf(payloads, c);
      volumes = Arrays.copyOf(volumes, c);
      outcomes = Arrays.copyOf(outcomes, c);
    }
    keys[size] = key;
    timestamps[size] = timestamp;
    values[size] = value;
    payloads[size] = payload;
    volumes[size] = volume;
    outcomes[size] = NOT_ADDED;
    return size++;
  }

  public int size() {
    return size;
  }

  /** Empties the batch, dropping references so that payloads can be collected. */
  public void clear() {
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(payloads, 0, size, null);
    size = 0;
  }

  public String key(int i) {
    return keys[i];
  }

  public long timestamp(int i) {
    return timestamps[i];
  }

  public double value(int i) {
    return values[i];
  }

  public Object payload(int i) {
    return payloads[i];
  }

  public double volume(int i) {
    return volumes[i];
  }

  /** Records that element {@code i} reached a window, late or not; called by the engine. */
  void markAdded(int i, boolean late) {
    if (late) {
      outcomes[i] = ADDED_LATE;
    } else if (outcomes[i] == NOT_ADDED) {
      outcomes[i] = ADDED;
    }
  }

  /** Whether element {@code i} reached at least one window in the last processing. */
  public boolean wasAdded(int i) {
    return outcomes[i] != NOT_ADDED;
  }

  /** Whether element {@code i} reached a window the watermark had already passed. */
  public boolean wasLate(int i) {
    return outcomes[i] == ADDED_LATE;
  }
}
