package io.eventide.sink;

import reactor.core.publisher.Mono;

/** Every pipeline's pane log, as the state store holds it, read from a position on. */
public interface PaneLogs {
  /**
   * Up to {@code limit} entries of the pane log after {@code position}, oldest first, with the
   * log's bounds as they stood at the same moment; a read after a position the log still holds may
   * leave the bounds out ({@link LogPage#held}).
   */
  Mono<LogPage> panesAfter(String pipeline, String position, int limit);
}
