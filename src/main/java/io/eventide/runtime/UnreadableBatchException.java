package io.eventide.runtime;

import io.eventide.core.PipelineCore;
import io.eventide.core.Rejections;

/**
 * A batch posted with {@code ?strict=true} in which reading found invalid events: refused whole,
 * nothing of it applied or logged, and no dead letter written.
 */
public final class UnreadableBatchException extends RuntimeException {
  private final int unreadable;
  private final transient Rejections listed;

  /** Refuses {@code batch} when reading found an event it cannot read. */
  static void refuseUnreadable(PipelineCore.ReadBatch batch) {
    if (batch.unreadable() > 0) {
      throw new UnreadableBatchException(batch.unreadable(), batch.unreadableRejections());
    }
  }

  public UnreadableBatchException(int unreadable, Rejections listed) {
    super(unreadable + " event(s) of the batch cannot be read; nothing of it was applied");
    this.unreadable = unreadable;
    this.listed = listed;
  }

  /** How many events of the batch cannot be read. */
  public int unreadable() {
    return unreadable;
  }

  /** The first of them, by position. */
  public Rejections listed() {
    return listed;
  }
}
