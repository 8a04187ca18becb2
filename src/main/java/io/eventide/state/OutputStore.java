package io.eventide.state;

import io.eventide.sink.PaneEvent;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The read side of the store, for HTTP: the latest pane per window, the dead letters and the pane
 * log that pane streams resume from, as the runtime's commits left them.
 */
public interface OutputStore {

  /**
   * The latest pane per window as records, optionally for one key and windows that overlap {@code
   * [from, to)}, ordered by window start.
   */
  Mono<List<JsonNode>> results(String pipeline, String key, long from, long to);

  /** Up to {@code limit} dead letters as records, newest first. */
  Mono<List<JsonNode>> deadLetters(String pipeline, int limit);

  /** The logged panes after {@code lastId}, oldest first, as far as the log still holds them. */
  Flux<PaneEvent> panesAfter(String pipeline, String lastId);
}
