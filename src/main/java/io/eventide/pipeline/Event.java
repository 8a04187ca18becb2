package io.eventide.pipeline;

/**
 * An event read through a pipeline's pointers, ready to enter an engine batch.
 *
 * @param value the number at the value pointer, or NaN when there is none
 * @param payload the value as plain Java objects when the aggregate reads it, else null
 * @param volume the volume (ohlc), or NaN when absent
 * @param id the event's id, or null
 * @param source the source that sent the event, or null
 */
public record Event(
    String key,
    long timestamp,
    double value,
    Object payload,
    double volume,
    String id,
    String source)
    implements EventReadResult {}
