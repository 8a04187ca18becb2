package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A combine function over a compact, mutable accumulator: create / add / merge / extract. Merge is
 * what session windows and partial state rely on, so it must be exact where the aggregate is exact.
 *
 * <p>Outputs ({@link #extract}, {@link #partial}) are built only from {@link Number}, {@link
 * String}, {@link Boolean}, {@code null}, {@link java.util.List} and {@link java.util.Map} so that
 * any sink can render them without knowing the aggregate.
 *
 * @param <A> the accumulator type
 */
public interface Aggregate<A> {

  /** The aggregate's type name as written in pipeline definitions, e.g. {@code "sum"}. */
  String type();

  /** A new, empty accumulator. */
  A create();

  /**
   * Adds one element.
   *
   * @param value the element's numeric value; NaN when the element has none (only allowed when
   *     {@link #needsNumber()} is false)
   * @param payload the element's value as plain Java objects (see the type comment), for aggregates
   *     that keep or hash values; null when {@link #usesPayload()} is false
   * @param volume the element's volume (ohlc), NaN when absent
   * @param timestamp the element's event time
   */
  void add(A acc, double value, Object payload, double volume, long timestamp);

  /** Folds {@code from} into {@code into}; {@code from} must not be used afterwards. */
  void merge(A into, A from);

  /** The output value of the accumulator. Does not modify it. */
  Object extract(A acc);

  /**
   * The mergeable partial state carried in pane records for non-additive aggregates (mean: {@code
   * {sum, count}}; sketches: base64 of the serialized sketch), or null.
   */
  default Object partial(A acc) {
    return null;
  }

  /**
   * Whether discarding panes of this aggregate cannot be combined from their values alone (a mean
   * of means, the latest of values without their times) and so carry a {@link #partial}.
   */
  default boolean needsPartialToCombine() {
    return false;
  }

  /** Writes the accumulator for durable state; {@link #read} must give back an equal one. */
  void write(A acc, DataOutput out) throws IOException;

  /**
   * Reads an accumulator written by {@link #write}: it extracts, partials, adds and merges exactly
   * as the written one would have.
   */
  A read(DataInput in) throws IOException;

  /** Whether every element must carry a finite number. */
  boolean needsNumber();

  /** Whether {@link #add} reads the payload. */
  default boolean usesPayload() {
    return false;
  }

  /**
   * Whether discarding panes can be combined downstream by plain addition of their values (count,
   * sum). Non-additive aggregates need their {@link #partial} to be combined.
   */
  default boolean additive() {
    return false;
  }
}
