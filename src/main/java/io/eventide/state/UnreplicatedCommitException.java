package io.eventide.state;

import io.eventide.core.IngestResult;
import java.util.List;

/**
 * A commit that Redis applied but fewer replicas than {@code eventide.state.redis.wait-replicas}
 * confirmed in time: it stands, and a failover now could lose it. Nothing is to be undone; the
 * producer is told, with what was applied.
 */
public class UnreplicatedCommitException extends RuntimeException {
  private final transient List<String> paneIds;
  private final long confirmed;
  private final int required;
  private final transient IngestResult applied;

  public UnreplicatedCommitException(List<String> paneIds, long confirmed, int required) {
    this(paneIds, confirmed, required, null);
  }

  private UnreplicatedCommitException(
      List<String> paneIds, long confirmed, int required, IngestResult applied) {
    super(
        "the commit was applied, but "
            + Math.max(confirmed, 0)
            + " of the "
            + required
            + " replicas required confirmed it in time",
        null,
        false,
        false);
    this.paneIds = paneIds;
    this.confirmed = confirmed;
    this.required = required;
    this.applied = applied;
  }

  /** The pane log ids of the commit's panes, which stand and are published. */
  public List<String> paneIds() {
    return paneIds;
  }

  public long confirmed() {
    return Math.max(confirmed, 0);
  }

  public int required() {
    return required;
  }

  /** What the request applied, or null when the commit was not a request's (a beat's). */
  public IngestResult applied() {
    return applied;
  }

  public UnreplicatedCommitException withApplied(IngestResult result) {
    return new UnreplicatedCommitException(paneIds, confirmed, required, result);
  }
}
