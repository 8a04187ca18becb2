package io.eventide.state;

import io.eventide.core.ShardSnapshot;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** One owner's handle on a pipeline's state, as read when it was opened. */
public interface PipelineState {

  int shardCount();

  /** A shard's state as it was when the pipeline was opened. */
  ShardSnapshot shard(int index);

  /** The watermark tracker's state as the runtime last committed it, or null. */
  String tracker();

  /** The lateness advisor's state as the runtime last committed it, or null. */
  String lateness();

  /**
   * Writes a commit as one atomic step and assigns its panes their pane log ids. Commits of one
   * pipeline must be issued one after another: each may depend on the one before.
   *
   * @return the ids of {@link Commit#panes()}, in order; fails with {@link
   *     StateUnavailableException} when the store cannot be reached or the owner was fenced
   */
  CompletableFuture<List<String>> commit(Commit commit);

  /**
   * Gives ownership up right after opening, for a definition found gone meanwhile: nothing of the
   * open stays behind, unless another owner has taken the state since. State that no open wrote to
   * has nothing to undo.
   */
  default CompletableFuture<Void> release() {
    return CompletableFuture.completedFuture(null);
  }
}
