package io.eventide.sink;

import reactor.core.Disposable;
import reactor.core.Disposables;

/**
 * Tells a replica's pane streams that a pipeline's pane log grew, whichever replica appended to it.
 * Commits of this process announce themselves ({@link PaneListener}); a store that other processes
 * write to watches the log itself, so that a stream learns of their commits at once rather than at
 * its next poll.
 */
@FunctionalInterface
public interface PaneLogWatch {
  /**
   * Calls {@code grew} whenever the pane log of {@code pipeline} may hold entries it did not hold
   * at the previous call (at least once soon after this call, and after the watch could not look
   * for a while), until the returned handle is disposed. Never blocks.
   */
  Disposable watch(String pipeline, Runnable grew);

  /**
   * For a store only this process writes to: its commits announce themselves, so there is nothing
   * to watch.
   */
  PaneLogWatch IN_PROCESS = (pipeline, grew) -> Disposables.disposed();
}
