package io.eventide.api;

import io.eventide.simulation.SimulationRequestParser;
import io.eventide.simulation.Simulator;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/** Runs a pipeline over scripted events, watermarks and processing times; stores nothing. */
@RestController
@Tag(name = "simulate")
class SimulationController {
  private final RequestJson requestJson;
  private final SimulationRequestParser parser;
  private final Simulator simulator;

  SimulationController(
      RequestJson requestJson, SimulationRequestParser parser, Simulator simulator) {
    this.requestJson = requestJson;
    this.parser = parser;
    this.simulator = simulator;
  }

  @PostMapping(
      path = "/simulate",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  @Operation(
      operationId = "simulate",
      summary = "Simulate a pipeline",
      description =
          "Feeds the steps to a fresh engine on a virtual processing clock and returns every pane"
              + " and every dropped event, each tagged with the step that caused it.",
      requestBody =
          @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content =
                  @Content(
                      mediaType = MediaType.APPLICATION_JSON_VALUE,
                      schema = @Schema(ref = ApiDocs.SIMULATE_REQUEST))))
  @ApiResponse(
      responseCode = "200",
      description = "Panes, dropped events and the pipeline's warnings",
      content = @Content(schema = @Schema(ref = ApiDocs.SIMULATE_RESPONSE)))
  @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
  @ApiResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
  Mono<JsonNode> simulate(@RequestBody byte[] body) {
    // A long simulation is CPU work: keep it off the event loop.
    return Mono.fromCallable(
            () -> (JsonNode) simulator.run(parser.parse(requestJson.parse(body))).toJson())
        .subscribeOn(Schedulers.boundedElastic());
  }
}
