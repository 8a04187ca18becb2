package io.eventide.api;

import io.eventide.core.KeyedWindow;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.PlainValues;
import io.eventide.definition.json.Timestamps;
import io.eventide.definition.json.Violation;
import io.eventide.engine.Time;
import io.eventide.runtime.RunningPipelines;
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
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/** {@code GET /pipelines/{name}/results}: the latest pane of each window, in pages. */
@RestController
@RequestMapping(path = "/pipelines")
class ResultsController {
  private static final int DEFAULT_RESULTS = 1000;
  private static final int MAX_RESULTS = 10_000;

  private final DefinedPipelines pipelines;
  private final OutputStore store;
  private final RunningPipelines runtimes;

  ResultsController(DefinedPipelines pipelines, OutputStore store, RunningPipelines runtimes) {
    this.pipelines = pipelines;
    this.store = store;
    this.runtimes = runtimes;
  }

  @GetMapping(path = "/{name}/results", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> results(
      @PathVariable String name,
      @RequestParam(required = false) String key,
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to,
      @RequestParam(required = false) String after,
      @RequestParam(defaultValue = "" + DEFAULT_RESULTS) int limit) {
    long fromMs = from == null ? Time.MIN : time("from", from);
    long toMs = to == null ? Time.MAX : time("to", to);
    if (limit < 1 || limit > MAX_RESULTS) {
      throw new InvalidInputException(
          List.of(new Violation("limit", "must be between 1 and " + MAX_RESULTS)));
    }
    KeyedWindow cursor = after == null ? null : ResultsCursor.decode(after);
    // The progress is read first: a window it covers was final before the results were read.
    return pipelines
        .named(name)
        .flatMap(
            d ->
                Mono.fromFuture(() -> runtimes.progress(d))
                    .zipWhen(through -> store.results(name, key, fromMs, toMs, cursor, limit)))
        .map(
            read -> {
              long through = read.getT1().finalThrough();
              OutputStore.ResultsPage page = read.getT2();
              ObjectNode out = JsonNodeFactory.instance.objectNode();
              out.put("pipeline", name);
              out.put("finalThrough", Timestamps.formatWatermark(through));
              ArrayNode results = out.putArray("results");
              page.records().forEach(r -> results.add(Finality.asOf(r, through)));
              if (page.next() != null) {
                out.put("next", ResultsCursor.encode(page.next()));
              }
              return out;
            });
  }

  private static long time(String parameter, String text) {
    try {
      JsonNode node =
          text.chars().allMatch(c -> Character.isDigit(c) || c == '-')
              ? PlainValues.toJson(Long.parseLong(text))
              : StringNode.valueOf(text);
      return Timestamps.parse(node);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(
          List.of(new Violation(parameter, "must be an ISO-8601 time or epoch milliseconds")));
    }
  }
}
