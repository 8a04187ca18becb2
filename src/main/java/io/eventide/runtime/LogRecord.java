package io.eventide.runtime;

import java.util.BitSet;

/**
 * One record of a pipeline's ingest log in cluster mode (docs/scaling.md): what a replica logged
 * for the partition's owner to apply, in order with everything else logged to the partition.
 *
 * @param kind what the record carries
 * @param lineage the lineage of the definition it was logged for: an owner skips records logged
 *     before a reset
 * @param readAt the wall-clock time the logging replica read the event at; the owner reads it as of
 *     that time
 * @param source the watermark's source ({@link Kind#WATERMARK}; null: every source); for events,
 *     the request's default source when they name none, else null
 * @param body an event's JSON (a CloudEvent's), events' ({@link Kind#EVENTS}), an unreadable line's
 *     text, or a watermark in decimal milliseconds
 * @param request the request that waits for its records to be applied ({@code ?wait=applied}), for
 *     whose counts the owner leaves a receipt; null when nobody waits
 * @param origin where an event read from a Kafka source was read from; null for a post's
 * @param position the event's position in the waiting request, for the receipt's rejections; -1
 *     when nobody waits
 * @param traceparent the span of the request that logged it, as a W3C {@code traceparent}, when
 *     that request is traced and sampled, else null: the owner's commit span is its child or links
 *     to it (docs/operations.md#tracing)
 * @param appendedTo on the first record an append wrote to each partition, every partition that
 *     append wrote to: the owner holds the pipeline's watermark back for those it has not heard
 *     from since (docs/scaling.md#watermarks-across-partitions); null on the others
 */
public record LogRecord(
    Kind kind,
    String lineage,
    long readAt,
    String source,
    byte[] body,
    String request,
    SourceOffset origin,
    int position,
    String traceparent,
    BitSet appendedTo) {

  /** A record nobody waits for, not read from a Kafka source. */
  public LogRecord(
      Kind kind, String lineage, long readAt, String source, byte[] body, String traceparent) {
    this(kind, lineage, readAt, source, body, null, null, -1, traceparent, null);
  }

  /** This record as the first of its append in its partition. */
  public LogRecord withAppendedTo(BitSet partitions) {
    return new LogRecord(
        kind, lineage, readAt, source, body, request, origin, position, traceparent, partitions);
  }

  /** The kinds of records. */
  public enum Kind {
    /** An event, as JSON. */
    EVENT,
    /**
     * Events of one request for one partition, each as JSON after its length ({@link EventFrames}):
     * a request's plain events, which share everything else a record says.
     */
    EVENTS,
    /** An event as a CloudEvent in the JSON event format, read as one by the owner. */
    CLOUD_EVENT,
    /** A line of an NDJSON body that is not JSON, for the dead letters. */
    UNREADABLE,
    /** A producer's watermark, written to every partition. */
    WATERMARK
  }
}
