package io.eventide.simulation;

import io.eventide.core.DeadLetter;
import io.eventide.core.IngestResult;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardStep;
import io.eventide.pipeline.InvalidInputException;
import io.eventide.pipeline.KeyFields;
import io.eventide.pipeline.PaneRecords;
import io.eventide.pipeline.Violation;
import io.eventide.pipeline.Violations;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Records what the simulated shard emits and drops, tagged with the step that caused it. */
final class SimulationRecorder {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final String pipeline;
  private final KeyFields keys;
  private final int maxRecords;
  private final SimulationBudget budget;
  private final List<ObjectNode> outputs = new ArrayList<>();
  private final List<ObjectNode> dropped = new ArrayList<>();
  private IngestResult counts = IngestResult.EMPTY;
  private int step;

  SimulationRecorder(String pipeline, KeyFields keys, int maxRecords, SimulationBudget budget) {
    this.pipeline = pipeline;
    this.keys = keys;
    this.maxRecords = maxRecords;
    this.budget = budget;
  }

  void startStep(int step) {
    this.step = step;
  }

  /** Events refused before they reached the shard: unreadable, or from the future. */
  void rejected(List<DeadLetter> letters) {
    letters.forEach(this::dropped);
  }

  /** The panes and drops of the shard's steps, in the order the shard took them. */
  void record(List<ShardStep> steps) {
    for (ShardStep s : steps) {
      for (RenderedPane p : s.panes()) {
        budget.spend(step, p.json().length());
        ObjectNode record = JSON.objectNode().put("step", step);
        record.setAll(PaneRecords.toJson(pipeline, keys, p.pane()));
        append(outputs, record, "panes");
      }
      s.deadLetters().forEach(this::dropped);
    }
  }

  /** What became of an events step's events, as {@code POST /events} would have answered. */
  void counted(IngestResult step) {
    counts = counts.plus(step);
  }

  private void dropped(DeadLetter letter) {
    ObjectNode record = JSON.objectNode().put("step", step);
    record.setAll(letter.toJson());
    budget.spend(step, record.toString().length());
    append(dropped, record, "dropped records");
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

  IngestResult counts() {
    return counts;
  }
}
