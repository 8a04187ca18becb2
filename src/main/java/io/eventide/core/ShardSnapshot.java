package io.eventide.core;

import java.util.Map;

/**
 * A shard's durable state: the engine's input watermark, every key's encoded state, and the event
 * ids it remembers with when each may be forgotten.
 */
public record ShardSnapshot(Long watermark, Map<String, byte[]> keys, Map<String, Long> ids) {
  public static final ShardSnapshot EMPTY = new ShardSnapshot(null, Map.of(), Map.of());
}
