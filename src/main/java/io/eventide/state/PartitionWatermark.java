package io.eventide.state;

/**
 * What one partition's owner last committed of its sources' event time: {@link
 * PartitionProgress#sourceWatermark()} and {@link PartitionProgress#heard()}; a partition never
 * committed has {@code Time.MIN} for both.
 */
public record PartitionWatermark(int partition, long sourceWatermark, long heard) {}
