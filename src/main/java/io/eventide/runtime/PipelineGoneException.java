package io.eventide.runtime;

/**
 * A pipeline that read a stream when a request arrived was deleted before the request reached it.
 */
public final class PipelineGoneException extends RuntimeException {
  private final String pipeline;

  PipelineGoneException(String pipeline) {
    super("pipeline '" + pipeline + "' was deleted before the request reached it");
    this.pipeline = pipeline;
  }

  public String pipeline() {
    return pipeline;
  }
}
