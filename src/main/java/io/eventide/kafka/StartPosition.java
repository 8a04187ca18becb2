package io.eventide.kafka;

import java.util.Collection;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.ConsumerSeekAware.ConsumerSeekCallback;

/**
 * Where a source reads from when nothing says where it stood: the consumer's {@code
 * auto.offset.reset}. With a store that is not durable it is used instead of the group's committed
 * offsets, which would skip events whose effect was lost with the state.
 */
enum StartPosition {
  BEGINNING,
  END;

  /** {@code latest} is the end; {@code earliest}, the default, and anything else the beginning. */
  static StartPosition of(Object autoOffsetReset) {
    return "latest".equals(autoOffsetReset) ? END : BEGINNING;
  }

  void seek(ConsumerSeekCallback callback, Collection<TopicPartition> partitions) {
    if (partitions.isEmpty()) {
      return;
    }
    if (this == END) {
      callback.seekToEnd(partitions);
    } else {
      callback.seekToBeginning(partitions);
    }
  }
}
