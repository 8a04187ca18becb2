package io.eventide.state.redis;

import io.eventide.state.StoreLostException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.publisher.Mono;

/**
 * Tells a Redis that holds Eventide's data from one that lost it. A marker key holds an id written
 * when the store is first used; this process reads it at start and then checks, every interval and
 * before it opens a pipeline's state, that it is still there. A Redis restarted without
 * persistence, flushed, or failed over to an empty replica has no marker (or a new one, written by
 * a replica that started on the empty store): what this process knew of every pipeline is gone, and
 * carrying on would create state anew behind the producers' backs (a post would answer 503, then
 * every request 404). So from then on the store refuses every operation of this process with {@link
 * StoreLostException} (503), readiness is DOWN, health and the metric say why, and an ERROR says it
 * once. Only a restart, once the operator has restored Redis or accepted the loss, takes the store
 * as it now is.
 *
 * <p>Once Redis first answers, it also reads how Redis persists its data: with neither an
 * append-only file nor RDB snapshots a restart of Redis loses everything, which it warns about once
 * and health shows.
 */
public final class RedisStoreMarker implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RedisStoreMarker.class);

  private final ReactiveStringRedisTemplate redis;
  private final String key;
  private final String mine = UUID.randomUUID().toString();
  private final ScheduledExecutorService checks;

  /** The marker's id as this process first read it; null until Redis first answered. */
  private volatile String id;

  private volatile String lost;
  private volatile Instant lostAt;

  /** How Redis persists its data ({@link #persistence()}); null until read. */
  private volatile String persistence;

  /**
   * Checks the marker every {@code interval}, the first time at once: a Redis that does not answer
   * yet is read when it does.
   *
   * @param timeout how long one scheduled check may wait for Redis
   */
  public RedisStoreMarker(
      ReactiveStringRedisTemplate redis, String keyPrefix, Duration interval, Duration timeout) {
    this.redis = redis;
    this.key = new RedisKeys(keyPrefix).marker();
    this.checks =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "eventide-store-marker");
              t.setDaemon(true);
              return t;
            });
    checks.scheduleWithFixedDelay(
        () -> check().onErrorComplete().block(timeout),
        0,
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /**
   * Reads the marker now (the first time, writing it if the store has none); completes once it was
   * read, whatever it said, and fails only if Redis did not answer.
   */
  public Mono<Void> check() {
    String known = id;
    if (known == null) {
      return redis
          .opsForValue()
          .setIfAbsent(key, mine)
          .flatMap(
              written -> {
                if (written) {
                  log.info(
                      "Redis holds no Eventide marker at '{}': the store is taken as new", key);
                  return Mono.just(mine);
                }
                return redis.opsForValue().get(key).defaultIfEmpty(mine);
              })
          .doOnNext(found -> id = found)
          .then(Mono.defer(this::readPersistence));
    }
    return redis
        .opsForValue()
        .get(key)
        .defaultIfEmpty("")
        .doOnNext(
            found -> {
              if (!found.equals(known)) {
                lose(found.isEmpty() ? "the marker is gone" : "another marker replaced it");
              }
            })
        .then();
  }

  /** Checks the marker now, then fails if the store has lost its data. */
  public Mono<Void> verify() {
    return check().then(Mono.fromRunnable(this::ensureIntact));
  }

  /** {@code operation}, unless the store has lost its data: then that, as an error. */
  public <T> Mono<T> guard(Mono<T> operation) {
    return Mono.defer(
        () -> {
          ensureIntact();
          return operation;
        });
  }

  /** Throws {@link StoreLostException} once the store has lost its data; costs no I/O. */
  public void ensureIntact() {
    String reason = lost;
    if (reason != null) {
      throw new StoreLostException(reason);
    }
  }

  /** Why the store is taken as lost, or null while it holds what this process saw. */
  public String lost() {
    return lost;
  }

  public Instant lostAt() {
    return lostAt;
  }

  /** How Redis persists: {@code aof}, {@code rdb}, {@code aof+rdb}, {@code none}, or null. */
  public String persistence() {
    return persistence;
  }

  private Mono<Void> readPersistence() {
    return redis
        .execute(
            c ->
                c.serverCommands()
                    .getConfig("appendonly")
                    .zipWith(c.serverCommands().getConfig("save")))
        .next()
        .map(
            both -> {
              // On a Redis Cluster, what every node keeps: a restart of any loses its slots.
              boolean aof = RedisConfigReplies.everyNode(both.getT1(), "appendonly", "yes"::equals);
              boolean rdb = RedisConfigReplies.everyNode(both.getT2(), "save", s -> !s.isBlank());
              return aof && rdb ? "aof+rdb" : aof ? "aof" : rdb ? "rdb" : "none";
            })
        .onErrorResume(e -> Mono.just("unreadable (CONFIG GET refused: " + e.getMessage() + ")"))
        .doOnNext(
            p -> {
              persistence = p;
              if (p.equals("none")) {
                log.warn(
                    "Redis keeps neither an append-only file nor RDB snapshots: a restart of Redis"
                        + " loses every pipeline's state, which Eventide then detects and refuses"
                        + " to serve (docs/redis.md says what production needs)");
              }
            })
        .then();
  }

  private synchronized void lose(String how) {
    if (lost != null) {
      return;
    }
    lostAt = Instant.now();
    lost =
        "Redis lost Eventide's data ("
            + how
            + " at key '"
            + key
            + "'): it restarted without persistence, was flushed or failed over to an empty"
            + " replica; this replica refuses every request until it is restarted, once Redis is"
            + " restored or the loss accepted (docs/redis.md)";
    log.error("{}", lost);
  }

  @Override
  public void close() {
    checks.shutdownNow();
  }
}
