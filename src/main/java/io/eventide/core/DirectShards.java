package io.eventide.core;

import java.util.List;

/**
 * Shards called on the caller's thread, one step after another: how {@code /simulate} and the
 * core's tests run a pipeline, whose steps are then the shards' results themselves.
 */
public final class DirectShards implements ShardOps<ShardStep> {
  private final ShardCore[] shards;

  public DirectShards(ShardCore... shards) {
    this.shards = shards;
  }

  public ShardCore shard(int index) {
    return shards[index];
  }

  public int count() {
    return shards.length;
  }

  @Override
  public ShardStep apply(int shard, List<IncomingEvent> part) {
    return shards[shard].apply(part);
  }

  @Override
  public ShardStep advanceWatermark(int shard, long watermark) {
    return shards[shard].advanceWatermark(watermark);
  }

  @Override
  public ShardStep fireProcessingTimers(int shard) {
    return shards[shard].fireProcessingTimers();
  }
}
