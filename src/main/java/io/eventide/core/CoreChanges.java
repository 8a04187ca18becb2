package io.eventide.core;

/**
 * What a {@link PipelineCore} has to commit of its own, apart from its shards: the watermark
 * tracker's state and the lateness advisor's ({@link LatenessReport}), each null when there is
 * nothing to write.
 */
public record CoreChanges(String tracker, String lateness) {
  public static final CoreChanges NONE = new CoreChanges(null, null);
}
