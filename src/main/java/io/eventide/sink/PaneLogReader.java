package io.eventide.sink;

import reactor.core.publisher.Mono;

/** Reads a pipeline's pane log, as the state store holds it; never blocks its caller. */
@FunctionalInterface
public interface PaneLogReader {
  /**
   * Up to {@code limit} entries after {@code position}, and the log's bounds at that read (which a
   * read after a position the log still holds may leave out: {@link LogPage#held}).
   */
  Mono<LogPage> after(String position, int limit);
}
