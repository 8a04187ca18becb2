package io.eventide.core;

import io.eventide.core.read.JsonLimits;

/**
 * What a client can make a pipeline remember, bounded: every batch and beat walks the watermark
 * sources under the pipeline's lock, and durable state writes them on every commit.
 *
 * @param maxSources watermark sources tracked at once; an event of one more is invalid
 * @param sourceExpiryIdleTimeouts how many of its pipeline's idle timeouts a source may stay silent
 *     before it is forgotten
 * @param idRetention how far (ms of event time) past an event's time the watermark may go before
 *     its id is forgotten, however long its windows stay open
 * @param maxIdsPerShard ids a shard remembers at once; past it those that would expire soonest go
 * @param json what the text of one event may make the parser do
 * @param latenessSources watermark sources whose lateness needs are kept apart; the needs of
 *     sources beyond are kept together
 * @param latenessWriteInterval how often (ms) at most the lateness advisor is committed
 * @param maxRejectedListed refused events a post's answer lists at most (it counts them all)
 * @param maxOpenWindows windows a pipeline holds at once over all its shards (or partitions); an
 *     event that would open one more is dead-lettered {@code quota}
 */
public record IngestBounds(
    int maxSources,
    int sourceExpiryIdleTimeouts,
    long idRetention,
    int maxIdsPerShard,
    JsonLimits json,
    int latenessSources,
    long latenessWriteInterval,
    int maxRejectedListed,
    int maxOpenWindows) {
  /** The defaults of the properties, for {@code /simulate} and tests. */
  public static final IngestBounds DEFAULT =
      new IngestBounds(
          1000, 60, 86_400_000L, 1_000_000, JsonLimits.DEFAULT, 16, 1000, 100, 1_000_000);

  /** The same bounds, with the lateness advisor kept apart for {@code sources} sources. */
  public IngestBounds withLatenessSources(int sources) {
    return new IngestBounds(
        maxSources,
        sourceExpiryIdleTimeouts,
        idRetention,
        maxIdsPerShard,
        json,
        sources,
        latenessWriteInterval,
        maxRejectedListed,
        maxOpenWindows);
  }

  /**
   * The open windows shard {@code share} of {@code shares} may hold: the limit split so that the
   * shares add up to it exactly. A shard checks its own share without asking the others, since
   * keys, and with them windows, are spread over shards by hash.
   */
  public int openWindowShare(int share, int shares) {
    return maxOpenWindows / shares + (share < maxOpenWindows % shares ? 1 : 0);
  }
}
