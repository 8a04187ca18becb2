package io.eventide.state;

import java.util.concurrent.CompletableFuture;

/**
 * Where a pipeline's engine state lives between batches: the write side of the store, used by the
 * runtime alone. The memory store is the embedded default; the Redis store is the state of record
 * in production. What HTTP reads back (results, dead letters, the pane log) is {@link
 * OutputStore}'s.
 *
 * <p>Every operation answers with a future and never blocks its caller, so that opening one
 * pipeline on a slow store holds up no other pipeline, no lock and no shared thread.
 */
public interface StateStore {

  /** Whether state survives a restart, so that the runtime must hand it every change. */
  boolean durable();

  /**
   * Takes ownership of a pipeline's state and reads it. Ownership fences any earlier owner: its
   * later commits fail. A durable store records the definition's lineage with the state.
   *
   * @param lineage the {@link io.eventide.definition.Revision#lineage()} of the definition the
   *     state is opened for
   * @param proposedShards the shard count for a pipeline with no state yet; one with state keeps
   *     the count it was created with, since keys are hashed into shards
   * @return fails with {@link StateUnavailableException} when the store cannot be reached, {@link
   *     StaleLineageException} when the state is of another lineage
   */
  CompletableFuture<PipelineState> open(String pipeline, String lineage, int proposedShards);

  /**
   * Whether anything is kept for a pipeline, whether or not this process runs it: another replica
   * may, or this one may not have resumed it yet since it started.
   */
  CompletableFuture<Boolean> hasState(String pipeline);

  /** Deletes everything kept for a pipeline (when it is deleted or reset). */
  CompletableFuture<Void> drop(String pipeline);
}
