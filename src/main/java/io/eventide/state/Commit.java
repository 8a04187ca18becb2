package io.eventide.state;

import io.eventide.core.DeadLetter;
import io.eventide.core.KeyedWindow;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardChanges;
import java.util.List;

/**
 * Everything one batch (or one beat of the clock) changed in a pipeline, written as one step: the
 * shards' changes, the watermark tracker (null when unchanged), the panes emitted, the session
 * windows merged away (whose results no longer stand for a window) and the events dead-lettered.
 */
public record Commit(
    List<ShardChanges> shards,
    String tracker,
    List<RenderedPane> panes,
    List<KeyedWindow> mergedAway,
    List<DeadLetter> deadLetters) {

  public boolean isEmpty() {
    return shards.isEmpty()
        && tracker == null
        && panes.isEmpty()
        && mergedAway.isEmpty()
        && deadLetters.isEmpty();
  }
}
