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
   * One key's state in a partition as last committed, read without taking ownership (for looking in
   * from any replica), with the partition's watermark.
   */
  CompletableFuture<ShardSnapshot> readPartition(String pipeline, int partition, String key);

  /**
   * A page of a partition's keys as last committed, read without taking ownership: the states of at
   * most {@code count} keys in key order ({@link io.eventide.engine.KeyOrder}) from {@code from}
   * on, {@code from} itself included (null: from the first key), with the partition's watermark.
   * Every key the store holds has an open window, so {@code count} keys hold at least that many.
   */
  CompletableFuture<ShardSnapshot> readPartitionKeys(
      String pipeline, int partition, String from, int count);

  /**
   * Key states read by {@link #readPartitionKeys} so far (where a partition's key order was not
   * kept, every key of the partition it read), the cost of reading open windows.
   */
  long keyStatesRead();

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
