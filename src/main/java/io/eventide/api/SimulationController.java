package io.eventide.api;

import io.eventide.simulation.SimulationRequestParser;
import io.eventide.simulation.Simulator;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import tools.jackson.databind.JsonNode;

/** Runs a pipeline over scripted events, watermarks and processing times; stores nothing. */
@RestController
class SimulationController {
  private final RequestJson requestJson;
  private final SimulationRequestParser parser;
  private final Simulator simulator;
  private final Scheduler simulations;

  SimulationController(
      RequestJson requestJson,
      SimulationRequestParser parser,
      Simulator simulator,
      @Qualifier("simulations") Scheduler simulations) {
    this.requestJson = requestJson;
    this.parser = parser;
    this.simulator = simulator;
    this.simulations = simulations;
  }

  @PostMapping(
      path = "/simulate",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> simulate(@RequestBody byte[] body) {
    // CPU work on threads of its own: never on the event loop, nor on a pool that pipelines need.
    AtomicBoolean cancelled = new AtomicBoolean();
    return Mono.fromCallable(
            () ->
                (JsonNode)
                    simulator.run(parser.parse(requestJson.parse(body)), cancelled::get).toJson())
        .subscribeOn(simulations)
        .onErrorMap(RejectedExecutionException.class, e -> new SimulationsBusyException())
        .doOnCancel(() -> cancelled.set(true));
  }
}
