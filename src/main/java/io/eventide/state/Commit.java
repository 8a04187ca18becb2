package io.eventide.state;

import io.eventide.core.DeadLetter;
import io.eventide.core.KeyedWindow;
import io.eventide.core.MergedWindow;
import io.eventide.core.OutputProgress;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardChanges;
import java.util.List;

/**
 * Everything one batch (or one beat of the clock) changed in a pipeline, written as one step: the
 * shards' changes, the watermark tracker and the lateness advisor (each null when unchanged or not
 * due, see {@link io.eventide.core.PipelineCore#changes}), the panes emitted, the session windows
 * merged away (whose results no longer stand for a window), the windows closed without a closing
 * pane whose result the pane log carries again as final (for a Kafka sink with finals) and the
 * events dead-lettered; in cluster mode also where the partition's owner stands ({@code progress},
 * else null); how far the owner's output has got ({@code outputProgress}: its output watermark and
 * what is final, null unchanged); and the commit's span as a W3C {@code traceparent}, which its
 * pane log entries carry for the Kafka sink (null when the commit is not traced,
 * docs/operations.md#tracing).
 */
public record Commit(
    List<ShardChanges> shards,
    String tracker,
    String lateness,
    List<RenderedPane> panes,
    List<MergedWindow> mergedAway,
    List<KeyedWindow> finals,
    List<DeadLetter> deadLetters,
    PartitionProgress progress,
    OutputProgress outputProgress,
    String traceparent) {

  /** A commit that leaves the owner's progress as it was. */
  public Commit(
      List<ShardChanges> shards,
      String tracker,
      List<RenderedPane> panes,
      List<MergedWindow> mergedAway,
      List<DeadLetter> deadLetters,
      PartitionProgress progress) {
    this(shards, tracker, null, panes, mergedAway, List.of(), deadLetters, progress, null, null);
  }

  /** A commit of a pipeline owned whole by one process. */
  public Commit(
      List<ShardChanges> shards,
      String tracker,
      List<RenderedPane> panes,
      List<MergedWindow> mergedAway,
      List<DeadLetter> deadLetters) {
    this(shards, tracker, panes, mergedAway, deadLetters, null);
  }

  /** The same commit, made by the span {@code traceparent}. */
  public Commit traced(String traceparent) {
    return new Commit(
        shards,
        tracker,
        lateness,
        panes,
        mergedAway,
        finals,
        deadLetters,
        progress,
        outputProgress,
        traceparent);
  }

  /** Nothing to write; a partition that read records must still record how far it read. */
  public boolean isEmpty() {
    return shards.isEmpty()
        && (progress == null || progress.nextOffset() == null)
        && tracker == null
        && lateness == null
        && panes.isEmpty()
        && mergedAway.isEmpty()
        && finals.isEmpty()
        && deadLetters.isEmpty()
        && outputProgress == null;
  }
}
