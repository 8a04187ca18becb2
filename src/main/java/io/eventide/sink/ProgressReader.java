package io.eventide.sink;

import reactor.core.publisher.Mono;

/**
 * Reads how far a pipeline's windows are final, as its owners last committed it; never blocks its
 * caller.
 */
@FunctionalInterface
public interface ProgressReader {
  /**
   * Every window whose {@code finalAt} is at or before the answer has been collected and will never
   * change again; {@link io.eventide.engine.Time#MIN} before any commit.
   */
  Mono<Long> finalThrough();
}
