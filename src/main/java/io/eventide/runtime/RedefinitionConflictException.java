package io.eventide.runtime;

/** A redefinition that would silently invalidate a running pipeline's state. */
public final class RedefinitionConflictException extends RuntimeException {
  private final String pipeline;

  public RedefinitionConflictException(String pipeline, String detail) {
    super(detail);
    this.pipeline = pipeline;
  }

  public String pipeline() {
    return pipeline;
  }
}
