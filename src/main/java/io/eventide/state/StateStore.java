package io.eventide.state;

import io.eventide.sink.PaneEvent;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Where pipelines keep what must outlive a request: the engine's state, the latest pane per window,
 * the pane log that pane streams resume from, and dead letters. The memory store is the embedded
 * default; the Redis store is the state of record in production.
 */
public interface StateStore {

  /** Whether state survives a restart, so that the runtime must hand it every change. */
  boolean durable();

  /**
   * Takes ownership of a pipeline's state and reads it. Ownership fences any earlier owner: its
   * later commits fail. Blocks; meant for starting a pipeline, never for the hot path.
   *
   * @param proposedShards the shard count for a pipeline with no state yet; one with state keeps
   *     the count it was created with, since keys are hashed into shards
   * @throws StateUnavailableException when the store cannot be reached
   */
  PipelineState open(String pipeline, int proposedShards);

  /** Deletes everything kept for a pipeline (when it is deleted or reset). */
  Mono<Void> drop(String pipeline);

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
