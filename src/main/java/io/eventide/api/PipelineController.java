package io.eventide.api;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.json.PipelineJson;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.runtime.PipelineLifecycle;
import java.net.URI;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Defines, lists, reads and deletes pipelines. */
@RestController
@RequestMapping(path = "/pipelines", produces = MediaType.APPLICATION_JSON_VALUE)
class PipelineController {
  private final PipelineRegistry registry;
  private final DefinedPipelines pipelines;
  private final PipelineLifecycle lifecycle;
  private final RequestJson requestJson;
  private final KafkaNamespace kafka;
  private final PipelineLimits limits;

  PipelineController(
      PipelineRegistry registry,
      DefinedPipelines pipelines,
      PipelineLifecycle lifecycle,
      RequestJson requestJson,
      KafkaNamespace kafka,
      PipelineLimits limits) {
    this.registry = registry;
    this.pipelines = pipelines;
    this.lifecycle = lifecycle;
    this.requestJson = requestJson;
    this.kafka = kafka;
    this.limits = limits;
  }

  @PutMapping(path = "/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
  Mono<ResponseEntity<JsonNode>> put(
      @PathVariable String name,
      @RequestParam(defaultValue = "false") boolean reset,
      @RequestBody byte[] body) {
    PipelineDefinition definition =
        PipelineParser.parseNamed(requestJson.parse(body), name, kafka, limits);
    JsonNode json = PipelineJson.withWarnings(definition);
    return lifecycle
        .define(definition, reset)
        .map(
            created ->
                created
                    ? ResponseEntity.created(location(name)).body(json)
                    : ResponseEntity.ok(json));
  }

  @GetMapping
  Mono<JsonNode> list() {
    return registry
        .list()
        .map(PipelineJson::withWarnings)
        .collect(JsonNodeFactory.instance::arrayNode, ArrayNode::add)
        .map(JsonNode.class::cast);
  }

  @GetMapping("/{name}")
  Mono<JsonNode> get(@PathVariable String name) {
    return pipelines.named(name).map(PipelineJson::withWarnings);
  }

  @DeleteMapping("/{name}")
  Mono<ResponseEntity<Void>> delete(@PathVariable String name) {
    return lifecycle
        .delete(name)
        .flatMap(
            found ->
                found
                    ? Mono.just(ResponseEntity.noContent().<Void>build())
                    : Mono.error(new PipelineNotFoundException(name)));
  }

  private static URI location(String name) {
    return UriComponentsBuilder.fromPath("/pipelines/{name}").buildAndExpand(name).toUri();
  }
}
