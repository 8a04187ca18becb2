package io.eventide.kafka;

import io.eventide.runtime.PipelineInput;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a pipeline's Kafka source stands: per partition, the offset after the last record whose
 * batch the pipeline applied, and the runtime it went into. Kept in this process for as long as the
 * pipeline is defined (across rebalances and restarts of its source), so that a poll delivered
 * again after it was applied (its offset commit lost to a rebalance) is not applied twice.
 *
 * <p>With a store that is not durable, the position is worth only as much as the state it went
 * into: once that runtime is gone (a failed step, a reset, a restart), the position is void and the
 * source reads its topic again from the start, so that the windows are computed anew from the
 * events.
 */
final class SourcePositions {
  private final boolean durable;
  private final Map<TopicPartition, Long> next = new HashMap<>();
  private PipelineInput appliedTo;

  SourcePositions(boolean durable) {
    this.durable = durable;
  }

  /** The offset to go on from in a partition, or null when this process has none. */
  synchronized Long next(TopicPartition partition) {
    return next.get(partition);
  }

  /** Whether this record's batch was applied already. */
  synchronized boolean applied(ConsumerRecord<?, ?> record) {
    Long n = next.get(new TopicPartition(record.topic(), record.partition()));
    return n != null && record.offset() < n;
  }

  /**
   * Whether the state the positions went into is gone (a store that is not durable, and another
   * runtime now); the positions are then forgotten, and the source must go back to its start.
   */
  synchronized boolean lostWith(PipelineInput runtime) {
    if (durable || appliedTo == null || appliedTo == runtime) {
      return false;
    }
    appliedTo = null;
    next.clear();
    return true;
  }

  /** Notes the records of a batch {@code runtime} applied. */
  synchronized void applied(
      PipelineInput runtime, Iterable<? extends ConsumerRecord<?, ?>> records) {
    appliedTo = runtime;
    for (ConsumerRecord<?, ?> r : records) {
      next.merge(new TopicPartition(r.topic(), r.partition()), r.offset() + 1, Math::max);
    }
  }
}
