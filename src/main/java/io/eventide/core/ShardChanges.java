package io.eventide.core;

import java.util.List;
import java.util.Map;

/**
 * What one step changed in a shard: keys rewritten or removed, event ids to remember until their
 * expiry, and the engine's input watermark when it moved (null otherwise). Keys the step did not
 * touch are not in it, so they are not rewritten. {@code added} are those of the changed keys that
 * the store did not hold before (for a store that keeps an index of its keys).
 */
public record ShardChanges(
    int shard,
    Map<String, byte[]> changed,
    List<String> added,
    List<String> removed,
    Map<String, Long> ids,
    Long watermark) {

  public boolean isEmpty() {
    return changed.isEmpty() && removed.isEmpty() && ids.isEmpty() && watermark == null;
  }
}
