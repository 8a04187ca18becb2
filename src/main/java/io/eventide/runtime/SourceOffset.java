package io.eventide.runtime;

/**
 * Where a record of a Kafka topic Eventide reads (a pipeline's {@code source.kafka}, a stream's
 * topic) was read from. In cluster mode it travels with the event through the ingest log, so that
 * the owner of the event's partition applies a source record logged twice (its reader died between
 * logging a poll and committing the poll's offsets) once.
 *
 * @param partition the source partition, {@code <topic>:<partition>}
 * @param offset the record's offset in it
 */
public record SourceOffset(String partition, long offset) {}
