package io.eventide.api;

import io.eventide.core.read.EventReader;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Timestamps;
import io.eventide.definition.json.Violation;
import io.eventide.runtime.PipelineInput;
import java.util.List;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The body of a watermark post, to a pipeline or to a stream. */
record WatermarkRequest(String source, long watermark) {
  static WatermarkRequest of(JsonNode json) {
    if (!json.isObject()) {
      throw new MalformedJsonException("the body must be an object");
    }
    JsonNode source = json.get("source");
    if (source != null && !source.isNull() && !source.isString()) {
      throw new InvalidInputException(List.of(new Violation("/source", "must be a string")));
    }
    String sourceProblem =
        source == null || source.isNull() ? null : EventReader.sourceProblem(source.asString());
    if (sourceProblem != null) {
      throw new InvalidInputException(List.of(new Violation("/source", sourceProblem)));
    }
    JsonNode value = json.get("watermark");
    if (value == null || value.isNull()) {
      throw new InvalidInputException(List.of(new Violation("/watermark", "is required")));
    }
    long watermark;
    try {
      watermark = Timestamps.parseWatermark(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException(List.of(new Violation("/watermark", e.getMessage())));
    }
    return new WatermarkRequest(
        source == null || source.isNull() ? null : source.asString(), watermark);
  }

  /**
   * Posts the watermark to one pipeline, within the post's span {@code traceparent} (null: not
   * traced); the answer says whether it moved, and where it is.
   */
  Mono<JsonNode> applyTo(PipelineInput runtime, String traceparent) {
    return Mono.fromFuture(() -> runtime.postWatermark(source, watermark, traceparent))
        .flatMap(
            accepted ->
                Mono.fromFuture(runtime::watermark)
                    .map(
                        view -> {
                          ObjectNode out = JsonNodeFactory.instance.objectNode();
                          out.put("accepted", accepted);
                          if (!accepted) {
                            out.put("reason", "the watermark would go backwards; it was ignored");
                          }
                          out.set("watermark", WatermarkJson.toJson(view));
                          return out;
                        }));
  }
}
