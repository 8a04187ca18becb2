package io.eventide.core;

import java.util.List;

/**
 * How a {@link PipelineCore} reaches its shards: directly ({@code /simulate}, whose steps are the
 * shards' results) or through the live runtime's serial queues (whose steps are futures of them).
 * The core decides what each shard must do and in which order; this decides where it runs.
 *
 * @param <S> what a shard's step gives back
 */
public interface ShardOps<S> {
  S apply(int shard, List<IncomingEvent> part);

  S advanceWatermark(int shard, long watermark);

  S fireProcessingTimers(int shard);
}
