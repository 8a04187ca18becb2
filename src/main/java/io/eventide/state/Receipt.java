package io.eventide.state;

import io.eventide.core.IngestResult;
import java.util.function.IntUnaryOperator;

/**
 * What became of a waiting request's records in one partition ({@code ?wait=applied}, cluster
 * mode): committed with the partition's state and offset, so that once the offset passes the
 * request's last record the counts are complete. A request's records may take several commits;
 * their receipts add up.
 *
 * <p>Its rejections are those only the owner can know (expired, closed, a source beyond the cap),
 * at their positions in the request: what reading refused the replica that logged the request knew
 * already.
 *
 * @param request the id the request's records carry in the log
 * @param positions where event {@code i} of the committed batch is in the request
 */
public record Receipt(String request, IngestResult counts, IntUnaryOperator positions) {

  /** A receipt of a batch that is the request's events in the request's order. */
  public Receipt(String request, IngestResult counts) {
    this(request, counts, i -> i);
  }

  /** Adds what the shards made of the batch, their rejections moved to the request's positions. */
  public Receipt plus(IngestResult more) {
    return new Receipt(
        request, counts.plus(more.withRejections(more.rejections().mapped(positions))), positions);
  }
}
