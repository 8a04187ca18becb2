package io.eventide.state;

import java.util.Map;

/**
 * One owner's handle on one partition of a pipeline in cluster mode: a {@link PipelineState} of a
 * single shard whose commits carry the partition's {@link PartitionProgress}.
 */
public interface PartitionState extends PipelineState {

  /** The offset of the next record to read, as last committed; 0 for a partition never read. */
  long nextOffset();

  /**
   * The offset of the last record of each Kafka source partition applied to this partition, by
   * {@code <topic>:<partition>}: a record read from there at or below it was applied already.
   */
  Map<String, Long> origins();
}
