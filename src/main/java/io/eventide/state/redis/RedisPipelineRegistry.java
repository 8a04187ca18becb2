package io.eventide.state.redis;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.Revision;
import io.eventide.definition.json.PipelineJson;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.state.StateProperties;
import java.util.Comparator;
import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keeps definitions in one Redis hash, name to definition JSON, in the form {@code GET
 * /pipelines/{name}} shows (without warnings) plus its {@code revision}, so that a restarted
 * service finds its pipelines. A definition is stored by a script that compares the revision.
 */
public class RedisPipelineRegistry implements PipelineRegistry {
  private static final String REVISION = "revision";
  private static final RedisScript<Long> DEFINE =
      RedisScript.of(new ClassPathResource("redis/define.lua"), Long.class);

  private final ReactiveStringRedisTemplate redis;
  private final String hash;
  private final KafkaNamespace kafka;
  private final PipelineLimits limits;

  /** A store that lost its data must not answer "no pipeline named ..." for what it forgot. */
  private final RedisStoreMarker marker;

  public RedisPipelineRegistry(
      ReactiveStringRedisTemplate redis,
      StateProperties state,
      KafkaNamespace kafka,
      PipelineLimits limits,
      RedisStoreMarker marker) {
    this.marker = marker;
    this.redis = redis;
    this.hash = new RedisKeys(state.keyPrefix()).pipelines();
    this.kafka = kafka;
    this.limits = limits;
  }

  @Override
  public Mono<PipelineDefinition> find(String name) {
    return marker
        .guard(redis.<String, String>opsForHash().get(hash, name))
        .map(json -> read(name, json))
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Flux<PipelineDefinition> list() {
    return marker
        .guard(redis.<String, String>opsForHash().entries(hash).collectList())
        .flatMapIterable(entries -> entries)
        .map(e -> read(e.getKey(), e.getValue()))
        .sort(Comparator.comparing(PipelineDefinition::name))
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Mono<Boolean> replace(PipelineDefinition next, Revision expected) {
    ObjectNode json = PipelineJson.write(next);
    json.put(REVISION, next.revision().tag());
    return marker
        .guard(
            redis
                .execute(
                    DEFINE,
                    List.of(hash),
                    List.of(next.name(), expected == null ? "" : expected.tag(), json.toString()))
                .next())
        .map(stored -> stored == 1L)
        .onErrorMap(RedisStateStore::unavailable);
  }

  @Override
  public Mono<Boolean> delete(String name) {
    return marker
        .guard(redis.opsForHash().remove(hash, name))
        .map(removed -> removed > 0)
        .onErrorMap(RedisStateStore::unavailable);
  }

  private PipelineDefinition read(String name, String json) {
    ObjectNode stored = (ObjectNode) JsonMapper.shared().readTree(json);
    JsonNode tag = stored.remove(REVISION);
    Revision revision = tag == null ? Revision.UNSTORED : Revision.ofTag(tag.asString());
    return PipelineParser.parseNamed(stored, name, kafka, limits).withRevision(revision);
  }
}
