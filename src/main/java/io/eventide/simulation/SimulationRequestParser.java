package io.eventide.simulation;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.JsonFields;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.json.Violation;
import io.eventide.definition.json.Violations;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Reads and checks a {@code /simulate} request body, reporting every violation at once. */
public final class SimulationRequestParser {
  /** The name of a simulated pipeline whose definition has none. */
  public static final String DEFAULT_NAME = "simulation";

  private static final List<String> STEP_KINDS = List.of("events", "watermark", "processingTime");

  private final SimulationLimits limits;
  private final PipelineLimits pipelineLimits;

  public SimulationRequestParser(SimulationLimits limits, PipelineLimits pipelineLimits) {
    this.limits = limits;
    this.pipelineLimits = pipelineLimits;
  }

  /**
   * @throws InvalidInputException listing every violation
   */
  public SimulationRequest parse(JsonNode body) {
    if (!body.isObject()) {
      throw new InvalidInputException(List.of(new Violation("", "must be an object")));
    }
    Violations violations = new Violations();
    JsonFields f = JsonFields.of(body, "", violations);
    JsonNode pipelineNode = f.require("pipeline");
    PipelineDefinition pipeline =
        pipelineNode == null
            ? null
            : PipelineParser.parse(
                pipelineNode, f.pathOf("pipeline"), violations, DEFAULT_NAME, pipelineLimits);
    Long start = f.timestamp("processingTimeStart", 0L);
    boolean autoWatermark = f.bool("autoWatermark", false);
    boolean progress = f.bool("progress", false);
    JsonNode stepsNode = f.require("steps");
    List<SimulationStep> steps =
        stepsNode == null ? List.of() : steps(stepsNode, f.pathOf("steps"), violations);
    f.rejectUnknown();
    violations.throwIfAny();
    return new SimulationRequest(pipeline, start, autoWatermark, progress, steps);
  }

  private List<SimulationStep> steps(JsonNode array, String path, Violations violations) {
    if (!array.isArray()) {
      violations.add(path, "must be an array of steps");
      return List.of();
    }
    if (array.size() > limits.maxSteps()) {
      violations.add(
          path, "must have at most " + limits.maxSteps() + " steps (has " + array.size() + ")");
      return List.of();
    }
    List<SimulationStep> steps = new ArrayList<>(array.size());
    int events = 0;
    for (int i = 0; i < array.size(); i++) {
      SimulationStep step = step(array.get(i), Violations.child(path, i), violations);
      if (step instanceof SimulationStep.Events e) {
        events += e.events().size();
      }
      steps.add(step);
    }
    if (events > limits.maxEvents()) {
      violations.add(
          path,
          "must hold at most " + limits.maxEvents() + " events in total (has " + events + ")");
    }
    return steps;
  }

  private SimulationStep step(JsonNode node, String path, Violations violations) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    long kinds = STEP_KINDS.stream().filter(kind -> f.get(kind) != null).count();
    f.rejectUnknown();
    if (kinds != 1) {
      violations.add(path, "must have exactly one of " + String.join(", ", STEP_KINDS));
      return null;
    }
    JsonNode events = f.get("events");
    if (events != null) {
      if (!events.isArray()) {
        f.violation("events", "must be an array of events");
        return null;
      }
      List<JsonNode> list = new ArrayList<>(events.size());
      events.values().forEach(list::add);
      return new SimulationStep.Events(list);
    }
    if (f.get("watermark") != null) {
      Long watermark = f.watermark("watermark");
      return watermark == null ? null : new SimulationStep.Watermark(watermark);
    }
    Long time = f.timestamp("processingTime", null);
    return time == null ? null : new SimulationStep.ProcessingTime(time);
  }
}
