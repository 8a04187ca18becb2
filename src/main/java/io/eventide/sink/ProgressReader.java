package io.eventide.sink;

import io.eventide.core.OutputProgress;
import reactor.core.publisher.Mono;

/**
 * Reads how far a pipeline's output has got, as its owners last committed it; never blocks its
 * caller.
 */
@FunctionalInterface
public interface ProgressReader {
  /**
   * The output watermark and the time through which windows are final: every window whose {@code
   * finalAt} is at or before it has been collected and will never change again; {@link
   * OutputProgress#NONE} before any commit.
   */
  Mono<OutputProgress> progress();
}
