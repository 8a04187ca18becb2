package io.eventide.state;

import io.eventide.core.IngestResult;

/**
 * What became of a waiting request's records in one partition ({@code ?wait=applied}, cluster
 * mode): committed with the partition's state and offset, so that once the offset passes the
 * request's last record the counts are complete. A request's records may take several commits;
 * their receipts add up.
 *
 * @param request the id the request's records carry in the log
 */
public record Receipt(String request, IngestResult counts) {

  public Receipt plus(IngestResult more) {
    return new Receipt(request, counts.plus(more));
  }
}
