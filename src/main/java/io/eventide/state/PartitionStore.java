package io.eventide.state;

import io.eventide.core.IngestResult;
import io.eventide.core.ShardSnapshot;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The state of pipelines in cluster mode, where each partition of a pipeline's ingest log is a
 * shard with an owner of its own: the owner opens its partition alone (fencing only that
 * partition's earlier owner), and commits the partition's offset with its state. Only Redis keeps
 * it: partitions move between processes.
 */
public interface PartitionStore {

  /**
   * Takes ownership of one partition of a pipeline and reads its state.
   *
   * @param partitions the pipeline's partition count, recorded as its shard count
   * @return fails with {@link StateUnavailableException} when the store cannot be reached, {@link
   *     StaleLineageException} when the pipeline's state is of another lineage
   */
  CompletableFuture<PartitionState> openPartition(
      String pipeline, String lineage, int partition, int partitions);

  /**
   * A partition's state as last committed, read without taking ownership (for looking in from any
   * replica): the whole shard, or only {@code key}'s state when it is not null.
   */
  CompletableFuture<ShardSnapshot> readPartition(String pipeline, int partition, String key);

  /**
   * What became of a waiting request's records ({@code ?wait=applied}): the sum of its receipts
   * once every partition it logged to has committed past its last record there, else empty.
   *
   * @param lastOffsets the offset of the request's last record, by partition
   */
  CompletableFuture<Optional<IngestResult>> receipt(
      String pipeline, String request, Map<Integer, Long> lastOffsets);

  /**
   * The lateness advisors' states ({@link io.eventide.core.LatenessReport}) that the partitions'
   * owners last committed, one per partition that committed one.
   */
  CompletableFuture<List<String>> partitionLateness(String pipeline, int partitions);

  /** What every partition of a pipeline last committed of its sources' event time, by partition. */
  CompletableFuture<List<PartitionWatermark>> partitionWatermarks(String pipeline, int partitions);
}
