package io.eventide.bench;

/**
 * One engine's share of the input, already cut into the batches it will receive, with the watermark
 * to advance to after each batch. Cutting happens before measuring, so a run only copies columns
 * into the engine's batch.
 */
public final class Feed {
  private final String[] keys;
  private final long[] timestamps;
  private final double[] values;
  private final int[] batchEnds;
  private final long[] watermarks;

  private Feed(int events, int batches) {
    keys = new String[events];
    timestamps = new long[events];
    values = new double[events];
    batchEnds = new int[batches];
    watermarks = new long[batches];
  }

  /**
   * Cuts the events into batches of {@code batchSize} in delivery order and, for {@code shards} >
   * 1, partitions every batch by key hash. Each shard advances to the watermark of the whole stream
   * (max timestamp seen so far minus the jitter), so a key sees exactly what it would see in a
   * single engine and checksums do not depend on the shard count.
   */
  public static Feed[] split(Events events, int batchSize, int shards) {
    int n = events.size();
    int[] shardOf = new int[n];
    int[] sizes = new int[shards];
    for (int i = 0; i < n; i++) {
      shardOf[i] = Math.floorMod(events.key(i).hashCode(), shards);
      sizes[shardOf[i]]++;
    }
    int batches = (n + batchSize - 1) / batchSize;
    Feed[] feeds = new Feed[shards];
    for (int s = 0; s < shards; s++) {
      feeds[s] = new Feed(sizes[s], batches);
    }
    int[] filled = new int[shards];
    long maxSeen = Long.MIN_VALUE;
    for (int b = 0; b < batches; b++) {
      int end = Math.min(n, (b + 1) * batchSize);
      for (int i = b * batchSize; i < end; i++) {
        Feed f = feeds[shardOf[i]];
        int j = filled[shardOf[i]]++;
        f.keys[j] = events.key(i);
        f.timestamps[j] = events.timestamps()[i];
        f.values[j] = events.values()[i];
        maxSeen = Math.max(maxSeen, events.timestamps()[i]);
      }
      for (int s = 0; s < shards; s++) {
        feeds[s].batchEnds[b] = filled[s];
        feeds[s].watermarks[b] = maxSeen - Workload.JITTER_MS;
      }
    }
    return feeds;
  }

  public int batchCount() {
    return batchEnds.length;
  }

  public int batchStart(int b) {
    return b == 0 ? 0 : batchEnds[b - 1];
  }

  public int batchEnd(int b) {
    return batchEnds[b];
  }

  public long watermarkAfter(int b) {
    return watermarks[b];
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
}
