package io.eventide.api;

import io.eventide.pipeline.PipelineDefinition;
import io.eventide.pipeline.PipelineJson;
import io.eventide.pipeline.PipelineParser;
import io.eventide.pipeline.PipelineRegistry;
import io.eventide.runtime.PipelineLifecycle;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
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
@Tag(name = "pipelines")
class PipelineController {
  private final PipelineRegistry registry;
  private final PipelineLifecycle lifecycle;
  private final RequestJson requestJson;

  PipelineController(
      PipelineRegistry registry, PipelineLifecycle lifecycle, RequestJson requestJson) {
    this.registry = registry;
    this.lifecycle = lifecycle;
    this.requestJson = requestJson;
  }

  @PutMapping(path = "/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "putPipeline",
      summary = "Create or replace a pipeline",
      description =
          "Validates the definition, fills in defaults and stores it. A name in the body must"
              + " equal the one in the URL. A failed request changes nothing.",
      requestBody =
          @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content =
                  @Content(
                      mediaType = MediaType.APPLICATION_JSON_VALUE,
                      schema = @Schema(ref = ApiDocs.PIPELINE_DEFINITION))))
  @ApiResponse(
      responseCode = "201",
      description = "Created; the normalised definition and its warnings",
      content = @Content(schema = @Schema(ref = ApiDocs.PIPELINE)))
  @ApiResponse(
      responseCode = "200",
      description = "Replaced; the normalised definition and its warnings",
      content = @Content(schema = @Schema(ref = ApiDocs.PIPELINE)))
  @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
  @ApiResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
  @ApiResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
  Mono<ResponseEntity<JsonNode>> put(
      @PathVariable String name,
      @Parameter(description = "Drop the running state when the change needs it")
          @RequestParam(defaultValue = "false")
          boolean reset,
      @RequestBody byte[] body) {
    PipelineDefinition definition = PipelineParser.parseNamed(requestJson.parse(body), name);
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
  @Operation(operationId = "listPipelines", summary = "List every pipeline, ordered by name")
  @ApiResponse(
      responseCode = "200",
      description = "Normalised definitions with their warnings",
      content = @Content(array = @ArraySchema(schema = @Schema(ref = ApiDocs.PIPELINE))))
  Mono<JsonNode> list() {
    return registry
        .list()
        .map(PipelineJson::withWarnings)
        .collect(JsonNodeFactory.instance::arrayNode, ArrayNode::add)
        .map(JsonNode.class::cast);
  }

  @GetMapping("/{name}")
  @Operation(operationId = "getPipeline", summary = "Read one pipeline")
  @ApiResponse(
      responseCode = "200",
      description = "The normalised definition with its warnings",
      content = @Content(schema = @Schema(ref = ApiDocs.PIPELINE)))
  @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
  Mono<JsonNode> get(@PathVariable String name) {
    return registry
        .find(name)
        .<JsonNode>map(PipelineJson::withWarnings)
        .switchIfEmpty(Mono.error(() -> new PipelineNotFoundException(name)));
  }

  @DeleteMapping("/{name}")
  @Operation(operationId = "deletePipeline", summary = "Delete a pipeline")
  @ApiResponse(responseCode = "204", description = "Deleted")
  @ApiResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
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
