package io.eventide.state.redis;

import io.eventide.config.StateProperties;
import io.eventide.pipeline.KafkaNamespace;
import io.eventide.pipeline.PipelineDefinition;
import io.eventide.pipeline.PipelineJson;
import io.eventide.pipeline.PipelineParser;
import io.eventide.pipeline.PipelineRegistry;
import java.util.Comparator;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps definitions in one Redis hash, name to definition JSON, in the form {@code GET
 * /pipelines/{name}} shows (without warnings), so that a restarted service finds its pipelines.
 */
public class RedisPipelineRegistry implements PipelineRegistry {
  private final ReactiveStringRedisTemplate redis;
  private final String hash;
  private final KafkaNamespace kafka;

  public RedisPipelineRegistry(
      ReactiveStringRedisTemplate redis, StateProperties state, KafkaNamespace kafka) {
    this.redis = redis;
    this.hash = new RedisKeys(state.keyPrefix()).pipelines();
    this.kafka = kafka;
  }

  @Override
  public Mono<PipelineDefinition> find(String name) {
    return redis
        .<String, String>opsForHash()
        .get(hash, name)
        .map(json -> read(name, json))
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Flux<PipelineDefinition> list() {
    return redis
        .<String, String>opsForHash()
        .entries(hash)
        .map(e -> read(e.getKey(), e.getValue()))
        .sort(Comparator.comparing(PipelineDefinition::name))
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Mono<Boolean> put(PipelineDefinition definition) {
    String json = PipelineJson.write(definition).toString();
    // HSET answers whether the field is new: true for a new pipeline, false for a replaced one.
    return redis
        .<String, String>opsForHash()
        .put(hash, definition.name(), json)
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Mono<Boolean> delete(String name) {
    return redis
        .opsForHash()
        .remove(hash, name)
        .map(removed -> removed > 0)
        .onErrorMap(RedisStateStore::unavailable);
  }

  private PipelineDefinition read(String name, String json) {
    return PipelineParser.parseNamed(JsonMapper.shared().readTree(json), name, kafka);
  }
}
