package io.eventide.core;

import java.util.List;

/**
 * What one step of a shard produced: the fate of a batch part's events (none for a timer step), the
 * panes emitted (rendered by the shard, so that shards render in parallel), the session windows
 * merged away, the windows closed without a closing pane (only when a sink sends their last pane
 * again as final), the events dropped, what changed in durable state (null when state is not
 * durable), and the shard's output watermark after the step.
 */
public record ShardStep(
    int shard,
    IngestResult outcome,
    List<RenderedPane> panes,
    List<MergedWindow> mergedAway,
    List<KeyedWindow> closedWithoutPane,
    List<DeadLetter> deadLetters,
    ShardChanges changes,
    long outputWatermark) {}
