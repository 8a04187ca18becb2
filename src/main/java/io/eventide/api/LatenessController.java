package io.eventide.api;

import io.eventide.core.LatenessRecord;
import io.eventide.core.LatenessReport;
import io.eventide.runtime.RunningPipelines;
import java.time.Duration;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /pipelines/{name}/lateness}: what the pipeline's events needed of {@code
 * allowedLateness} (docs/pipelines.md), overall and per watermark source, and the smallest lateness
 * that would have kept each of a few fractions of them.
 */
@RestController
@RequestMapping(path = "/pipelines")
class LatenessController {
  /** The quantiles of need shown, the highest being the largest need observed. */
  private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};

  /** The completeness each suggestion is for. */
  private static final double[] COMPLETENESS = {0.9, 0.99, 0.999};

  private final DefinedPipelines pipelines;
  private final RunningPipelines runtimes;

  LatenessController(DefinedPipelines pipelines, RunningPipelines runtimes) {
    this.pipelines = pipelines;
    this.runtimes = runtimes;
  }

  @GetMapping(path = "/{name}/lateness", produces = MediaType.APPLICATION_JSON_VALUE)
  Mono<JsonNode> lateness(@PathVariable String name) {
    return pipelines
        .named(name)
        .flatMap(
            d ->
                Mono.fromFuture(() -> runtimes.lateness(d))
                    .map(report -> answer(name, d.allowedLateness(), report)));
  }

  private static JsonNode answer(String name, Duration allowed, LatenessReport report) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("pipeline", name);
    out.put("allowedLateness", allowed.toString());
    figures(out, report.overall(), allowed.toMillis());
    ArrayNode sources = out.putArray("sources");
    report
        .sources()
        .forEach(
            (source, r) ->
                figures(sources.addObject().put("source", source), r, allowed.toMillis()));
    if (report.others() != null) {
      figures(out.putObject("otherSources"), report.others(), allowed.toMillis());
    }
    return out;
  }

  /** A record's figures; with no events, only the counts. */
  private static void figures(ObjectNode out, LatenessRecord r, long allowed) {
    out.put("events", r.events());
    out.put("onTime", r.onTime());
    if (r.events() == 0) {
      return;
    }
    out.put("rankError", r.rankError());
    ObjectNode need = out.putObject("needMillis");
    for (double q : QUANTILES) {
      need.put(Double.toString(q), r.need(q));
    }
    need.put("max", r.maxNeed());
    ArrayNode suggestions = out.putArray("suggestions");
    for (double c : COMPLETENESS) {
      suggestions
          .addObject()
          .put("completeness", c)
          .put("allowedLateness", Duration.ofMillis(r.need(c)).toString());
    }
    out.put("kept", r.kept(allowed));
  }
}
