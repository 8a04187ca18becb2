package io.eventide.engine;

import java.util.Arrays;

/**
 * A reusable, columnar batch of elements: one HTTP request, one Kafka poll, or one {@code events}
 * step of a simulation. Columns avoid an object per element on the hot path.
 *
 * <p>An element has one value, payload and volume per lane: one lane for a single aggregate, one
 * per aggregate for {@link io.eventide.engine.aggregate.NamedAggregates}. Lanes sit next to each
 * other in the same columns, so more lanes cost no more objects.
 */
public final class ElementBatch {
  private static final byte NOT_ADDED = 0;
  private static final byte ADDED = 1;
  private static final byte ADDED_LATE = 2;

  private final int lanes;
  private String[] keys;
  private long[] timestamps;
  private double[] values;
  private Object[] payloads;
  private double[] volumes;
  private byte[] outcomes;
  private int size;

  /** A batch of one lane. */
  public ElementBatch(int initialCapacity) {
    this(initialCapacity, 1);
  }

  public ElementBatch(int initialCapacity, int lanes) {
    if (lanes < 1) {
      throw new IllegalArgumentException("a batch has at least one lane, got " + lanes);
    }
    int c = Math.max(1, initialCapacity);
    this.lanes = lanes;
    keys = new String[c];
    timestamps = new long[c];
    values = new double[c * lanes];
    payloads = new Object[c * lanes];
    volumes = new double[c * lanes];
    outcomes = new byte[c];
  }

  /**
   * Appends an element of a one-lane batch and returns its index in the batch.
   *
   * @param value NaN when the element has no number
   * @param payload the value as plain Java objects, or null when the aggregate does not need it
   * @param volume NaN when absent
   */
  public int add(String key, long timestamp, double value, Object payload, double volume) {
    if (lanes != 1) {
      throw new IllegalStateException("this batch has " + lanes + " lanes; add them all");
    }
    int i = append(key, timestamp);
    values[i] = value;
    payloads[i] = payload;
    volumes[i] = volume;
    return i;
  }

  /**
   * Appends an element with a value per lane and returns its index in the batch.
   *
   * @param laneValues one per lane, NaN where the lane has no number
   * @param lanePayloads one per lane, or null when no lane's aggregate reads payloads
   * @param laneVolumes one per lane, or null when no lane has a volume
   */
  public int add(
      String key,
      long timestamp,
      double[] laneValues,
      Object[] lanePayloads,
      double[] laneVolumes) {
    if (laneValues.length != lanes) {
      throw new IllegalArgumentException(laneValues.length + " values for " + lanes + " lanes");
    }
    int i = append(key, timestamp);
    int at = i * lanes;
    System.arraycopy(laneValues, 0, values, at, lanes);
    if (lanePayloads == null) {
      Arrays.fill(payloads, at, at + lanes, null);
    } else {
      System.arraycopy(lanePayloads, 0, payloads, at, lanes);
    }
    if (laneVolumes == null) {
      Arrays.fill(volumes, at, at + lanes, Double.NaN);
    } else {
      System.arraycopy(laneVolumes, 0, volumes, at, lanes);
    }
    return i;
  }

  private int append(String key, long timestamp) {
    if (size == keys.length) {
      int c = size * 2;
      keys = Arrays.copyOf(keys, c);
      timestamps = Arrays.copyOf(timestamps, c);
      values = Arrays.copyOf(values, c * lanes);
      payloads = Arrays.copyOf(payloads, c * lanes);
      volumes = Arrays.copyOf(volumes, c * lanes);
      outcomes = Arrays.copyOf(outcomes, c);
    }
    keys[size] = key;
    timestamps[size] = timestamp;
    outcomes[size] = NOT_ADDED;
    return size++;
  }

  public int size() {
    return size;
  }

  public int lanes() {
    return lanes;
  }

  /** Empties the batch, dropping references so that payloads can be collected. */
  public void clear() {
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(payloads, 0, size * lanes, null);
    size = 0;
  }

  public String key(int i) {
    return keys[i];
  }

  public long timestamp(int i) {
    return timestamps[i];
  }

  /** The value of a one-lane batch's element. */
  public double value(int i) {
    return values[i];
  }

  public Object payload(int i) {
    return payloads[i];
  }

  public double volume(int i) {
    return volumes[i];
  }

  public double value(int i, int lane) {
    return values[i * lanes + lane];
  }

  public Object payload(int i, int lane) {
    return payloads[i * lanes + lane];
  }

  public double volume(int i, int lane) {
    return volumes[i * lanes + lane];
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
