package io.eventide.state.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Waits until Redis replicas have a commit ({@code WAIT}), on a connection of its own: {@code WAIT}
 * blocks the connection it is sent on, which must not be the one every read and commit shares.
 *
 * <p>{@code WAIT} covers the writes of the connection it is sent on, so each wait first writes a
 * probe key on its own connection after the commit returned. Redis replicates one ordered stream,
 * so replicas that have the probe have the commit before it.
 */
final class ReplicaWait implements AutoCloseable {
  private final RedisClient client;
  private final int replicas;
  private final long timeoutMillis;
  private final AtomicReference<StatefulRedisConnection<String, String>> connection =
      new AtomicReference<>();

  /**
   * @throws IllegalStateException for a Redis Cluster client: {@code WAIT} there is per node, and
   *     Eventide does not route it to the node of a pipeline's slot
   */
  ReplicaWait(AbstractRedisClient client, int replicas, Duration timeout) {
    if (!(client instanceof RedisClient standalone)) {
      throw new IllegalStateException(
          "eventide.state.redis.wait-replicas needs a standalone or Sentinel Redis, not "
              + client.getClass().getSimpleName());
    }
    this.client = standalone;
    this.replicas = replicas;
    this.timeoutMillis = timeout.toMillis();
  }

  /** How many replicas acknowledged everything written before this call, within the timeout. */
  Mono<Long> acknowledged(String probeKey) {
    return connection()
        .flatMap(
            c ->
                c.reactive()
                    .incr(probeKey)
                    .then(c.reactive().waitForReplication(replicas, timeoutMillis)));
  }

  int required() {
    return replicas;
  }

  /** The connection, opened on first use off the caller's thread (connecting blocks). */
  private Mono<StatefulRedisConnection<String, String>> connection() {
    StatefulRedisConnection<String, String> open = connection.get();
    if (open != null) {
      return Mono.just(open);
    }
    return Mono.fromCallable(
            () -> {
              synchronized (connection) {
                StatefulRedisConnection<String, String> c = connection.get();
                if (c == null) {
                  c = client.connect(StringCodec.UTF8);
                  connection.set(c);
                }
                return c;
              }
            })
        .subscribeOn(Schedulers.boundedElastic());
  }

  @Override
  public void close() {
    StatefulRedisConnection<String, String> c = connection.getAndSet(null);
    if (c != null) {
      c.close();
    }
  }
}
