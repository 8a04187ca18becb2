package io.eventide.state;

import io.eventide.core.KeyedWindow;
import io.eventide.core.OutputProgress;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneLogs;
import java.util.Comparator;
import java.util.List;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The read side of the store, for HTTP: the latest pane per window, the dead letters and the pane
 * log that pane streams read, as the runtime's commits left them.
 */
public interface OutputStore extends PaneLogs {

  /**
   * A page of the latest pane per window as records, in the store's window order, optionally for
   * one key and windows that overlap {@code [from, to)}, starting after the window {@code after}
   * (null: from the first). A read goes through the windows of its key only, and from the first
   * that can end after {@code from} (one starting at most the longest window held before it): what
   * it visits beyond what it returns are the windows between those bounds that the filters refuse.
   */
  Mono<ResultsPage> results(
      String pipeline, String key, long from, long to, KeyedWindow after, int limit);

  /**
   * How far the pipeline's output has got, as its owner last committed it ({@link
   * OutputProgress#NONE} before any commit): its output watermark, and the time through which its
   * windows are final (every window whose {@code finalAt} is at or before it has been collected and
   * will never change again). A pipeline owned whole by one process; in cluster mode each partition
   * has its own ({@link PartitionWatermark}).
   */
  Mono<OutputProgress> progress(String pipeline);

  /**
   * The lateness advisor's state ({@link io.eventide.core.LatenessReport}) as the pipeline's owner
   * last committed it: none before any, one for a pipeline owned whole by one process (in cluster
   * mode each partition has its own, {@link PartitionStore#partitionLateness}).
   */
  Mono<List<String>> lateness(String pipeline);

  /** Up to {@code limit} dead letters as records, newest first. */
  Mono<List<JsonNode>> deadLetters(String pipeline, int limit);

  /**
   * A page of the windows' latest panes (optionally of one key) in the store's window order after
   * {@code after} (null: from the first), together with the pane log position they reflect, read at
   * one moment: the log's entries after that position are exactly the changes since.
   */
  Mono<Snapshot> snapshot(String pipeline, String key, KeyedWindow after, int limit);

  /** The order pages of results and snapshots come in. */
  Comparator<KeyedWindow> windowOrder();

  /**
   * How many stored windows results and snapshot reads have gone through since the store started,
   * those they returned included: what reads cost.
   */
  long resultsVisited();

  /** A page of results, and the window to continue after when there may be more (else null). */
  record ResultsPage(List<JsonNode> records, KeyedWindow next) {}

  /**
   * A page of the windows' results (as snapshot items carrying {@code position}) as of the log's
   * {@code position}, and the window to continue after when there may be more (else null).
   */
  record Snapshot(String position, List<PaneEvent> windows, KeyedWindow next) {}
}
