package io.eventide.state;

/**
 * What one partition's owner last committed of its sources' event time: {@link
 * PartitionProgress#sourceWatermark()} and {@link PartitionProgress#heard()}, and how far its
 * windows are final ({@link Commit#finalThrough()}); a partition never committed has {@code
 * Time.MIN} for all three.
 */
public record PartitionWatermark(
    int partition, long sourceWatermark, long heard, long finalThrough) {}
