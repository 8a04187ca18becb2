package io.eventide.bench;

/**
 * Generated input in delivery order, as columns so that feeding the engine reads arrays only.
 *
 * @param keyNames the key strings by key id, shared by every event of a key as a service would
 *     intern them
 */
public record Events(String[] keyNames, int[] keyIds, long[] timestamps, double[] values) {

  public int size() {
    return keyIds.length;
  }

  public String key(int i) {
    return keyNames[keyIds[i]];
  }

  /** The sum of all input values, exact: values are small integers. */
  public double valueSum() {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum;
  }
}
