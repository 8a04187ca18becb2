package io.eventide.runtime;

/** What became of a request's work on one of the pipelines reading a stream. */
public sealed interface Delivery<T> {
  /** The work completed with {@code result}. */
  record Applied<T>(T result) implements Delivery<T> {}

  /** The work failed with {@code error}; what it had applied before is the caller's to tell. */
  record Failed<T>(Throwable error) implements Delivery<T> {}
}
