package io.eventide.core;

import java.util.List;
import java.util.Map;

/**
 * What one step changed in a shard: keys rewritten or removed, event ids to remember until their
 * expiry, and the engine's input watermark when it moved (null otherwise). Keys the step did not
 * touch are not in it, so they are not rewritten.
 */
public record ShardChanges(
    int shard,
    Map<String, byte[]> changed,
    List<String> removed,
    Map<String, Long> ids,
    Long watermark) {

  public boolean isEmpty() {
    return changed.isEmpty() && removed.isEmpty() && ids.isEmpty() && watermark == null;
  }
}
