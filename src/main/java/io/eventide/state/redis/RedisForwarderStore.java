package io.eventide.state.redis;

import io.eventide.sink.ForwarderStore;
import io.eventide.state.StateProperties;
import java.time.Duration;
import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Mono;

/**
 * Pane forwarder leases and checkpoints in Redis, under the pipeline's hash tag beside its pane
 * log, so that dropping the pipeline's state drops them too. The lease is a string holding the
 * holder's random token, set with NX and PX; the checkpoint is written by a script that checks the
 * token in the same step.
 */
public class RedisForwarderStore implements ForwarderStore {
  private static final RedisScript<Long> EXTEND =
      RedisScript.of(new ClassPathResource("redis/forwarder-extend.lua"), Long.class);
  private static final RedisScript<Long> CHECKPOINT =
      RedisScript.of(new ClassPathResource("redis/forwarder-checkpoint.lua"), Long.class);
  private static final RedisScript<Long> RELEASE =
      RedisScript.of(new ClassPathResource("redis/forwarder-release.lua"), Long.class);

  private final ReactiveStringRedisTemplate redis;
  private final RedisKeys keys;

  public RedisForwarderStore(ReactiveStringRedisTemplate redis, StateProperties state) {
    this.redis = redis;
    this.keys = new RedisKeys(state.keyPrefix());
  }

  @Override
  public Mono<Boolean> acquire(String pipeline, String token, Duration ttl) {
    return redis
        .opsForValue()
        .setIfAbsent(keys.forwarderLease(pipeline), token, ttl)
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Mono<Boolean> extend(String pipeline, String token, Duration ttl) {
    return run(
        EXTEND,
        List.of(keys.forwarderLease(pipeline)),
        List.of(token, Long.toString(ttl.toMillis())));
  }

  @Override
  public Mono<Checkpoint> checkpoint(String pipeline) {
    return redis
        .<String, String>opsForHash()
        .multiGet(keys.forwarderCheckpoint(pipeline), List.of("position", "read"))
        .filter(fields -> fields.get(0) != null && fields.get(1) != null)
        .map(fields -> new Checkpoint(fields.get(0), Long.parseLong(fields.get(1))))
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Mono<Boolean> saveCheckpoint(String pipeline, String token, Checkpoint checkpoint) {
    return run(
        CHECKPOINT,
        List.of(keys.forwarderLease(pipeline), keys.forwarderCheckpoint(pipeline)),
        List.of(token, checkpoint.position(), Long.toString(checkpoint.read())));
  }

  @Override
  public Mono<Void> release(String pipeline, String token) {
    return run(RELEASE, List.of(keys.forwarderLease(pipeline)), List.of(token)).then();
  }

  private Mono<Boolean> run(RedisScript<Long> script, List<String> keys, List<String> args) {
    return redis
        .execute(script, keys, args)
        .next()
        .map(reply -> reply == 1L)
        .onErrorMap(RedisStateStore::unavailable);
  }
}
