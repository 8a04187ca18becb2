package io.eventide.state.redis;

import io.eventide.sink.PaneLogWatch;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.reactive.RedisServerReactiveCommands;
import io.lettuce.core.api.reactive.RedisStreamReactiveCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * Watches pane logs with one blocking {@code XREAD} per watched pipeline, each on a connection of
 * its own: a blocked connection answers nothing else, so it must not be the one that commits and
 * reads share. A watch finds the log's newest id, says the log grew (a stream that read just before
 * the watch began may have missed what came in between), and blocks for an entry after that id;
 * when one comes it finds the newest id again, says so, and blocks after it. Whatever the rate of
 * commits, a watch makes two small calls per wake-up, and the streams it wakes read the log from
 * their own positions, so a wake-up that comes late or twice loses or repeats nothing.
 *
 * <p>A failed call (Redis away, the connection killed) closes the connection; the watch connects
 * again after a backoff and starts over by saying the log grew, so streams read what was committed
 * meanwhile.
 */
public final class RedisPaneLogWatch implements PaneLogWatch, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedisPaneLogWatch.class);

  /**
   * How long one {@code XREAD} blocks before it is sent again: short enough that a connection that
   * died without a word is noticed by the command timeout added to it.
   */
  static final Duration BLOCK = Duration.ofSeconds(5);

  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

  /** The name each watch's connection gives itself, followed by the key of the log it watches. */
  public static final String CLIENT_NAME = "eventide-pane-watch:";

  private final AbstractRedisClient client;
  private final RedisKeys keys;
  private final Duration callTimeout;
  private final Disposable.Composite watches = Disposables.composite();

  /**
   * @param client the Lettuce client of the service's connection factory, for new connections
   * @param commandTimeout the service's Redis command timeout, which a blocking call adds to its
   *     block
   */
  public RedisPaneLogWatch(AbstractRedisClient client, String keyPrefix, Duration commandTimeout) {
    this.client = client;
    this.keys = new RedisKeys(keyPrefix);
    this.callTimeout = BLOCK.plus(commandTimeout);
  }

  @Override
  public Disposable watch(String pipeline, Runnable grew) {
    Disposable.Swap watch = Disposables.swap();
    watches.add(watch);
    watch.update(
        Flux.defer(() -> session(pipeline, grew))
            .retryWhen(
                Retry.backoff(Long.MAX_VALUE, FIRST_BACKOFF)
                    .maxBackoff(MAX_BACKOFF)
                    .transientErrors(true)
                    .doBeforeRetry(
                        failed -> {
                          if (failed.totalRetriesInARow() == 0) {
                            log.warn(
                                "the pane log watch of {} lost Redis ({}); connecting again",
                                pipeline,
                                failed.failure().toString());
                          }
                        }))
            .subscribe());
    return () -> {
      watches.remove(watch);
      watch.dispose();
    };
  }

  /** One connection's watch, from connecting until a call fails or the watch is disposed. */
  private Flux<String> session(String pipeline, Runnable grew) {
    String key = keys.paneLog(pipeline);
    return Flux.usingWhen(
        // Connecting blocks: not on the caller's thread, which may be a request's.
        Mono.fromCallable(this::connect).subscribeOn(Schedulers.boundedElastic()),
        link ->
            link.server()
                .clientSetname(CLIENT_NAME + key)
                .then(newest(link, key))
                .doOnNext(id -> grew.run())
                .expand(position -> next(link, key, position, grew)),
        link -> Mono.fromFuture(link.connection().closeAsync()));
  }

  /**
   * Blocks for an entry after {@code position}; the id to block after next: the log's newest once
   * an entry came (having said so), else {@code position} again.
   */
  private Mono<String> next(Link link, String key, String position, Runnable grew) {
    return link.streams()
        .xread(XReadArgs.Builder.block(BLOCK).count(1), XReadArgs.StreamOffset.from(key, position))
        .collectList()
        .timeout(callTimeout)
        .flatMap(
            got ->
                got.isEmpty() ? Mono.just(position) : newest(link, key).doOnNext(id -> grew.run()));
  }

  /** The newest entry's id, {@code 0-0} for a log that holds none. */
  private Mono<String> newest(Link link, String key) {
    return link.streams()
        .xrevrange(key, Range.create("-", "+"), Limit.from(1))
        .next()
        .map(StreamMessage::getId)
        .defaultIfEmpty("0-0")
        .timeout(callTimeout);
  }

  private Link connect() {
    Link link;
    if (client instanceof RedisClusterClient cluster) {
      StatefulRedisClusterConnection<String, String> c = cluster.connect(StringCodec.UTF8);
      link = new Link(c, c.reactive(), c.reactive());
    } else {
      StatefulRedisConnection<String, String> c = ((RedisClient) client).connect(StringCodec.UTF8);
      link = new Link(c, c.reactive(), c.reactive());
    }
    link.connection().setTimeout(callTimeout);
    return link;
  }

  /** Stops every watch, as when the service shuts down. */
  @Override
  public void close() {
    watches.dispose();
  }

  private record Link(
      StatefulConnection<String, String> connection,
      RedisStreamReactiveCommands<String, String> streams,
      RedisServerReactiveCommands<String, String> server) {}
}
