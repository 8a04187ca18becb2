package io.eventide.state;

import java.util.Map;

/**
 * Where a partition's owner stands, committed with its state: the offset of the next record of the
 * partition's ingest log to read (null when the step read no record, so the stored one stands), and
 * what the partition's sources say of event time, which every other owner of the pipeline reads to
 * derive the pipeline's input watermark.
 *
 * @param nextOffset the offset to resume reading at, or null for unchanged
 * @param sourceWatermark the watermark the partition's own sources give, {@code Time.MIN} for none
 * @param heard when (processing time) a source of the partition was last heard from
 * @param receipt the counts of a waiting request's records this commit applies, else null
 * @param origins the offset of the last record of each Kafka source partition that reached this
 *     partition through the log, where this commit moved it (by {@code <topic>:<partition>})
 */
public record PartitionProgress(
    Long nextOffset, long sourceWatermark, long heard, Receipt receipt, Map<String, Long> origins) {

  public PartitionProgress(Long nextOffset, long sourceWatermark, long heard) {
    this(nextOffset, sourceWatermark, heard, null, Map.of());
  }

  public PartitionProgress withReceipt(Receipt r) {
    return new PartitionProgress(nextOffset, sourceWatermark, heard, r, origins);
  }

  public PartitionProgress withOrigins(Map<String, Long> moved) {
    return new PartitionProgress(nextOffset, sourceWatermark, heard, receipt, moved);
  }
}
