package io.eventide.api;

import io.eventide.runtime.IngestProperties;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The ingestion requests in flight, over all pipelines. While the state store is slow each holds
 * its batch and a queued commit; past the cap a request is refused at once rather than queued, so
 * that memory stays bounded and the producer backs off. One count for all, so that names of
 * pipelines that do not exist leave nothing behind; a post to a stream takes one permit however
 * many pipelines read the stream, as it holds one body.
 */
@Component
final class IngestPermits {
  private final AtomicInteger inFlight = new AtomicInteger();
  private final int max;

  IngestPermits(IngestProperties properties) {
    this.max = properties.maxInFlight();
  }

  /** The work, run only when a permit is free and holding it until the work ends. */
  <T> Mono<T> admit(Mono<T> work) {
    return Mono.defer(
        () -> {
          if (inFlight.incrementAndGet() > max) {
            inFlight.decrementAndGet();
            return Mono.error(new IngestionBusyException(max));
          }
          return work.doFinally(signal -> inFlight.decrementAndGet());
        });
  }
}
