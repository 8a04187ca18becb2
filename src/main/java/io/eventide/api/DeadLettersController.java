package io.eventide.api;

import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.state.OutputStore;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** {@code GET /pipelines/{name}/dead-letters}: the latest events the pipeline could not apply. */
@RestController
@RequestMapping(path = "/pipelines")
class DeadLettersController {
  private static final int MAX_DEAD_LETTERS = 1000;

  private final DefinedPipelines pipelines;
  private final OutputStore store;

  DeadLettersController(DefinedPipelines pipelines, OutputStore store) {
    this.pipelines = pipelines;
    this.store = store;
  }

  @GetMapping(path = "/{name}/dead-letters", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> deadLetters(
      @PathVariable String name, @RequestParam(defaultValue = "100") int limit) {
    if (limit < 1 || limit > MAX_DEAD_LETTERS) {
      throw new InvalidInputException(
          List.of(new Violation("limit", "must be between 1 and " + MAX_DEAD_LETTERS)));
    }
    return pipelines
        .named(name)
        .flatMap(d -> store.deadLetters(name, limit))
        .map(
            records -> {
              ObjectNode out = JsonNodeFactory.instance.objectNode();
              out.put("pipeline", name);
              out.putArray("deadLetters").addAll(records);
              return out;
            });
  }
}
