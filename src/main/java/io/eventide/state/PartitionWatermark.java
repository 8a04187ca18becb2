package io.eventide.state;

import io.eventide.core.OutputProgress;

/**
 * What one partition's owner last committed of its sources' event time: {@link
 * PartitionProgress#sourceWatermark()} and {@link PartitionProgress#heard()}, and how far its
 * output has got ({@link Commit#outputProgress()}); a partition never committed has {@code
 * Time.MIN} for the first two and {@link OutputProgress#NONE}.
 */
public record PartitionWatermark(
    int partition, long sourceWatermark, long heard, OutputProgress progress) {}
