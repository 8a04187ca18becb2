package io.eventide.runtime;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Where pipelines' events are logged in cluster mode before any replica applies them: one log per
 * pipeline, split in partitions, each read in order by the one replica that owns it. Kafka is the
 * log; the runtime only says what goes to which partition.
 */
public interface IngestLog {

  /**
   * The pipeline's partition count, creating its log with {@code eventide.cluster.partitions}
   * partitions if it has none yet.
   */
  CompletableFuture<Integer> partitions(String pipeline);

  /**
   * Appends records, each to its partition, in order per partition; completes once every one is
   * durable (acknowledged by all in-sync replicas), and fails if any is not.
   *
   * @return the offset of the last record appended to each partition, by partition
   */
  CompletableFuture<Map<Integer, Long>> append(String pipeline, List<Entry> entries);

  /** A record for a partition, with the key that names it (for reading the log by hand). */
  record Entry(int partition, String key, LogRecord record) {}
}
