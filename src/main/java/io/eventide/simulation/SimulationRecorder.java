package io.eventide.simulation;

import io.eventide.engine.DropReason;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneOutput;
import io.eventide.engine.Window;
import io.eventide.pipeline.InvalidEvent;
import io.eventide.pipeline.InvalidInputException;
import io.eventide.pipeline.PaneRecords;
import io.eventide.pipeline.Violation;
import io.eventide.pipeline.Violations;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Records what a simulated engine emits and drops, tagged with the step that caused it. */
final class SimulationRecorder implements PaneOutput {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final String pipeline;
  private final int maxRecords;
  private final List<ObjectNode> outputs = new ArrayList<>();
  private final List<ObjectNode> dropped = new ArrayList<>();
  private int step;
  private List<JsonNode> batchEvents = List.of();

  SimulationRecorder(String pipeline, int maxRecords) {
    this.pipeline = pipeline;
    this.maxRecords = maxRecords;
  }

  /**
   * Starts a step.
   *
   * @param batchEvents the events as sent, indexed like the engine batch of this step
   */
  void startStep(int step, List<JsonNode> batchEvents) {
    this.step = step;
    this.batchEvents = batchEvents;
  }

  @Override
  public void pane(Pane pane) {
    ObjectNode record = JSON.objectNode().put("step", step);
    record.setAll(PaneRecords.toJson(pipeline, pane));
    append(outputs, record, "panes");
  }

  @Override
  public void dropped(int element, Window window, DropReason reason) {
    ObjectNode record = dropRecord(batchEvents.get(element), reason);
    record.set("window", PaneRecords.window(window));
    append(dropped, record, "dropped records");
  }

  /** An event that never reached the engine because it could not be read. */
  void invalid(JsonNode event, InvalidEvent invalid) {
    ObjectNode record = dropRecord(event, DropReason.INVALID);
    record.put("path", invalid.path()).put("detail", invalid.reason());
    append(dropped, record, "dropped records");
  }

  /** An event too far ahead of the simulated wall clock; it never reached the engine. */
  void future(JsonNode event, String timestampPath, java.time.Duration maxFutureSkew) {
    ObjectNode record = dropRecord(event, DropReason.FUTURE);
    record
        .put("path", timestampPath)
        .put("detail", "more than " + maxFutureSkew + " ahead of processing time");
    append(dropped, record, "dropped records");
  }

  private ObjectNode dropRecord(JsonNode event, DropReason reason) {
    ObjectNode record = JSON.objectNode().put("step", step);
    record.set("event", event);
    record.put("reason", reason.wireName());
    return record;
  }

  private void append(List<ObjectNode> records, ObjectNode record, String what) {
    if (records.size() == maxRecords) {
      throw new InvalidInputException(
          List.of(
              new Violation(
                  Violations.child("/steps", step),
                  "the simulation would produce more than "
                      + maxRecords
                      + " "
                      + what
                      + " by this step; split it into smaller simulations")));
    }
    records.add(record);
  }

  List<ObjectNode> outputs() {
    return outputs;
  }

  List<ObjectNode> dropped() {
    return dropped;
  }
}
