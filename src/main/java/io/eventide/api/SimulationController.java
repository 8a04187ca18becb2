package io.eventide.api;

import io.eventide.simulation.SimulationRequestParser;
import io.eventide.simulation.Simulator;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;

/** Runs a pipeline over scripted events, watermarks and processing times; stores nothing. */
@RestController
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
  Mono<JsonNode> simulate(@RequestBody byte[] body) {
    // A long simulation is CPU work: keep it off the event loop.
    return Mono.fromCallable(
            () -> (JsonNode) simulator.run(parser.parse(requestJson.parse(body))).toJson())
        .subscribeOn(Schedulers.boundedElastic());
  }
}
