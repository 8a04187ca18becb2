package io.eventide.api;

import io.eventide.core.KeyedWindow;
import io.eventide.core.render.PaneRecords;
import io.eventide.definition.KeyFields;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.PlainValues;
import io.eventide.definition.json.Timestamps;
import io.eventide.definition.json.Violation;
import io.eventide.engine.WindowSnapshot;
import io.eventide.runtime.RunningPipelines;
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

/**
 * {@code GET /pipelines/{name}/windows}: the open windows and why each has or has not fired, in
 * pages in key and window order, as {@code /results} pages its windows.
 */
@RestController
@RequestMapping(path = "/pipelines")
class WindowsController {
  private static final int DEFAULT_WINDOWS = 100;
  private static final int MAX_WINDOWS = 1000;

  private final DefinedPipelines pipelines;
  private final RunningPipelines runtimes;

  WindowsController(DefinedPipelines pipelines, RunningPipelines runtimes) {
    this.pipelines = pipelines;
    this.runtimes = runtimes;
  }

  @GetMapping(path = "/{name}/windows", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> windows(
      @PathVariable String name,
      @RequestParam(required = false) String key,
      @RequestParam(required = false) String after,
      @RequestParam(defaultValue = "" + DEFAULT_WINDOWS) int limit) {
    if (limit < 1 || limit > MAX_WINDOWS) {
      throw new InvalidInputException(
          List.of(new Violation("limit", "must be between 1 and " + MAX_WINDOWS)));
    }
    KeyedWindow cursor = after == null ? null : ResultsCursor.decode(after);
    // One more than the page: whether there is a next one.
    return pipelines
        .named(name)
        .flatMap(
            d ->
                Mono.fromFuture(() -> runtimes.explain(d, key, cursor, limit + 1))
                    .map(windows -> explained(name, d.event().keyFields(), windows, limit)));
  }

  private static JsonNode explained(
      String name, KeyFields keys, List<WindowSnapshot> windows, int limit) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("pipeline", name);
    ArrayNode list = out.putArray("windows");
    for (WindowSnapshot w : windows.subList(0, Math.min(limit, windows.size()))) {
      ObjectNode n = list.addObject();
      n.set("key", keys.render(w.key()));
      n.set("window", PaneRecords.window(w.window()));
      n.put("elements", w.elementCount());
      n.put("pendingElements", w.pendingElements());
      n.put("nextPaneIndex", w.nextPaneIndex());
      n.put("closed", w.closed());
      // Open: final only once its trigger has finished (its last pane said so); any other window
      // leaves this view in the commit that collects it, when its result in /results turns final.
      n.put("final", w.closed());
      n.put("finalAt", Timestamps.format(w.finalAt()));
      n.set("contents", PlainValues.toJson(w.contents()));
      n.put("trigger", w.trigger());
      n.put("endOfWindow", Timestamps.format(w.endOfWindow()));
      n.put("gcTime", Timestamps.formatWatermark(w.gcTime()));
      n.put("watermark", Timestamps.formatWatermark(w.watermark()));
    }
    if (windows.size() > limit) {
      WindowSnapshot last = windows.get(limit - 1);
      out.put(
          "next",
          ResultsCursor.encode(
              new KeyedWindow(last.key(), last.window().start(), last.window().end())));
    }
    return out;
  }
}
