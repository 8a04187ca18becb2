package io.eventide.api;

import io.eventide.runtime.RuntimeProperties;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The threads that read posted events: parse each, evaluate its expressions and hand the batch to
 * its pipeline. A body is in once its last chunk arrives on a Netty event loop, which must not
 * spend a large batch's parsing there, as every connection it serves would wait; nor on a Redis
 * client's thread, which completes the registry reads of cluster mode. So each batch hops once, as
 * a whole, to one of these, {@code eventide.runtime.workers} of them. Their queue holds no more
 * than the requests admitted by {@link IngestPermits}, each of which waits for its batch.
 */
@Component
final class EventReaders implements DisposableBean {
  private final Scheduler threads;

  EventReaders(RuntimeProperties runtime) {
    this.threads = Schedulers.newParallel("eventide-read", runtime.workerCount(), true);
  }

  /** The work, subscribed to (and so begun) on a reading thread. */
  <T> Mono<T> on(Mono<T> work) {
    return work.subscribeOn(threads);
  }

  @Override
  public void destroy() {
    threads.dispose();
  }
}
