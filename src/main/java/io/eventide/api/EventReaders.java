package io.eventide.api;

import io.eventide.definition.PipelineDefinition;
import io.eventide.runtime.IngestProperties;
import io.eventide.runtime.RuntimeProperties;
import io.netty.channel.EventLoop;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;

/**
 * Where posted events are read: parsed, their expressions evaluated, the batch handed to its
 * pipeline. A body is in once its last chunk arrives on a Netty event loop, which must not spend a
 * large batch's reading there, as every connection it serves would wait; nor may a Redis client's
 * thread, which completes the registry reads of cluster mode. So a batch hops, as a whole, to one
 * of the {@code eventide-read} threads ({@code eventide.runtime.workers} of them), unless it is a
 * pipeline route's batch of at most {@code eventide.ingest.read-on-loop-limit} bytes whose pipeline
 * evaluates no expression, and it is still on its own connection's loop: reading such a batch costs
 * the loop a millisecond or two at most (W1's 1 000 events, 66 KB, 0.3–1.1 ms), and the hop cost W1
 * over HTTP about 0.5 s of the service's 26 s of CPU (docs/benchmarks.md). The threads' queue holds
 * no more than the requests admitted by {@link IngestPermits}, each of which waits for its batch.
 */
@Component
final class EventReaders implements DisposableBean {
  private final Scheduler threads;
  private final long onLoopLimit;

  EventReaders(RuntimeProperties runtime, IngestProperties ingest) {
    this.threads = Schedulers.newParallel("eventide-read", runtime.workerCount(), true);
    this.onLoopLimit = ingest.readOnLoopLimit().toBytes();
  }

  /** The work, subscribed to (and so begun) on a reading thread. */
  <T> Mono<T> on(Mono<T> work) {
    return work.subscribeOn(threads);
  }

  /**
   * A pipeline route's batch of {@code bytes} from {@code request}: begun on the request's event
   * loop when it is small, its pipeline evaluates no expression and it is subscribed to there, else
   * on a reading thread.
   */
  <T> Mono<T> on(
      Mono<T> work, ServerHttpRequest request, PipelineDefinition definition, long bytes) {
    EventLoop loop =
        bytes <= onLoopLimit && !definition.evaluatesExpressions() ? loopOf(request) : null;
    return Mono.defer(() -> loop != null && loop.inEventLoop() ? work : on(work));
  }

  /** The event loop of the request's connection; null when it is not served by Reactor Netty. */
  private static EventLoop loopOf(ServerHttpRequest request) {
    return ServerHttpRequestDecorator.getNativeRequest(request) instanceof Connection c
        ? c.channel().eventLoop()
        : null;
  }

  @Override
  public void destroy() {
    threads.dispose();
  }
}
