package io.eventide.state;

/**
 * One owner's handle on one partition of a pipeline in cluster mode: a {@link PipelineState} of a
 * single shard whose commits carry the partition's {@link PartitionProgress}.
 */
public interface PartitionState extends PipelineState {

  /** The offset of the next record to read, as last committed; 0 for a partition never read. */
  long nextOffset();
}
