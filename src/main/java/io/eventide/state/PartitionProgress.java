package io.eventide.state;

/**
 * Where a partition's owner stands, committed with its state: the offset of the next record of the
 * partition's ingest log to read (null when the step read no record, so the stored one stands), and
 * what the partition's sources say of event time, which every other owner of the pipeline reads to
 * derive the pipeline's input watermark.
 *
 * @param nextOffset the offset to resume reading at, or null for unchanged
 * @param sourceWatermark the watermark the partition's own sources give, {@code Time.MIN} for none
 * @param heard when (processing time) a source of the partition was last heard from
 */
public record PartitionProgress(Long nextOffset, long sourceWatermark, long heard) {}
