package io.eventide.core;

import io.eventide.engine.Time;
import java.util.Arrays;

/**
 * A pipeline's input watermark in cluster mode, where each partition of its ingest log has its own
 * sources: the minimum over the partitions heard from within the idle timeout, as the watermark of
 * one process is the minimum over its sources that are not idle. A partition holds the pipeline
 * back by what it has read, not by what was sent to it, so that a partition whose owner lags or
 * moves makes the others wait rather than makes its events late.
 *
 * <p>A partition is also heard from when a record read from another names it as written to by the
 * same append ({@link #expect}): until its owner has read that append's records, it holds the
 * pipeline back at its watermark as last seen, or at the beginning of time when it never had one.
 * Without that, the partition read first at a pipeline's start, or after another fell idle, would
 * move the watermark past events still waiting in the others.
 *
 * <p>One view per pipeline per process, shared by the partitions it owns: each owned partition
 * reports its own sources as they change, the others' come from the store at every beat. Every
 * value only ever rises, so a view that is behind can only hold a firing back, never bring it
 * forward.
 */
public final class PartitionWatermarks {
  /** What a partition's own sources say: their watermark and when one was last heard from. */
  public record OwnSources(long watermark, long heard) {}

  private final long[] watermarks;
  private final long[] heard;
  private volatile long idleTimeout;

  public PartitionWatermarks(int partitions, long idleTimeout) {
    this.watermarks = new long[partitions];
    this.heard = new long[partitions];
    Arrays.fill(watermarks, Time.MIN);
    Arrays.fill(heard, Time.MIN);
    this.idleTimeout = idleTimeout;
  }

  public int partitions() {
    return watermarks.length;
  }

  public void reconfigure(long idleTimeout) {
    this.idleTimeout = idleTimeout;
  }

  /** What a partition's sources say: its watermark, and when one of them was last heard from. */
  public synchronized void observe(int partition, long sourceWatermark, long lastHeard) {
    watermarks[partition] = Math.max(watermarks[partition], sourceWatermark);
    heard[partition] = Math.max(heard[partition], lastHeard);
  }

  /**
   * Partition {@code partition} was written to at {@code appendedAt} by an append whose record in
   * another partition was just read: it is heard from then, though nothing of it is read yet.
   */
  public synchronized void expect(int partition, long appendedAt) {
    heard[partition] = Math.max(heard[partition], appendedAt);
  }

  /**
   * The pipeline's input watermark at {@code now}: the minimum over partitions heard from within
   * the idle timeout (one without a watermark yet holding it at {@link Time#MIN}); when every
   * partition is idle, the minimum over those that ever had a watermark (each follows its own idle
   * rule); {@link Time#MIN} before any has.
   */
  public synchronized long inputWatermark(long now) {
    long active = Long.MAX_VALUE;
    long any = Long.MAX_VALUE;
    for (int p = 0; p < watermarks.length; p++) {
      if (now - heard[p] <= idleTimeout) {
        active = Math.min(active, watermarks[p]);
      }
      if (watermarks[p] != Time.MIN) {
        any = Math.min(any, watermarks[p]);
      }
    }
    if (active != Long.MAX_VALUE) {
      return active;
    }
    return any == Long.MAX_VALUE ? Time.MIN : any;
  }

  /** Partition {@code p}'s watermark as last seen. */
  public synchronized long watermark(int p) {
    return watermarks[p];
  }

  /** When partition {@code p}'s sources were last heard from. */
  public synchronized long heard(int p) {
    return heard[p];
  }
}
