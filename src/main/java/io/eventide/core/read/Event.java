package io.eventide.core.read;

/**
 * An event read through a pipeline's pointers, ready to enter an engine batch: one value per lane,
 * that is one for a single aggregate and one per named aggregate.
 *
 * @param key the key, in {@link KeyFields}' string form when composite
 * @param values each lane's number, NaN where there is none
 * @param payloads each lane's value as plain Java objects, or null when no lane reads payloads
 * @param volumes each lane's volume (ohlc), NaN where absent; null when no lane has a volume
 * @param id the event's id, or null
 * @param source the source that sent the event, or null
 * @param timestampPath the JSON pointer its timestamp was read at, for a refusal that blames it
 */
public record Event(
    String key,
    long timestamp,
    double[] values,
    Object[] payloads,
    double[] volumes,
    String id,
    String source,
    String timestampPath)
    implements EventReadResult {

  /** The same event with {@code timestamp} as its time. */
  public Event stampedAt(long timestamp) {
    return new Event(key, timestamp, values, payloads, volumes, id, source, timestampPath);
  }
}
