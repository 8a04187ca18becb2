package io.eventide.core;

/**
 * What a client can make a pipeline remember, bounded: every batch and beat walks the watermark
 * sources under the pipeline's lock, and durable state writes them on every commit.
 *
 * @param maxSources watermark sources tracked at once; an event of one more is invalid
 * @param sourceExpiryIdleTimeouts how many of its pipeline's idle timeouts a source may stay silent
 *     before it is forgotten
 */
public record IngestBounds(int maxSources, int sourceExpiryIdleTimeouts) {
  /** The defaults of the properties, for {@code /simulate} and tests. */
  public static final IngestBounds DEFAULT = new IngestBounds(1000, 60);
}
