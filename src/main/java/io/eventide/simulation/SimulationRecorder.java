package io.eventide.simulation;

import io.eventide.core.DeadLetter;
import io.eventide.core.IngestResult;
import io.eventide.core.OutputProgress;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardStep;
import io.eventide.core.render.PaneRecords;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Records what the simulated shard emits and drops, tagged with the step that caused it. */
final class SimulationRecorder {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final SimulationBudget budget;
  private final List<ObjectNode> outputs = new ArrayList<>();
  private final List<ObjectNode> dropped = new ArrayList<>();
  private IngestResult counts = IngestResult.EMPTY;
  private int step;

  SimulationRecorder(SimulationBudget budget) {
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
      // The shard charged the budget for its panes as it rendered them. Their records are read
      // back from that text, so that a simulation shows what the live service would send.
      for (RenderedPane p : s.panes()) {
        ObjectNode record = JSON.objectNode().put("step", step);
        record.setAll((ObjectNode) JsonMapper.shared().readTree(p.json()));
        outputs.add(record);
      }
      s.deadLetters().forEach(this::dropped);
    }
  }

  /**
   * The pipeline's progress after a step moved it ({@link PaneRecords#progress}), flagged {@code
   * "progress": true} among the panes.
   */
  void progress(String pipeline, OutputProgress progress) {
    String json = PaneRecords.progress(pipeline, progress.watermark(), progress.finalThrough());
    budget.pane(step, json.length());
    ObjectNode record = JSON.objectNode().put("step", step).put("progress", true);
    record.setAll((ObjectNode) JsonMapper.shared().readTree(json));
    outputs.add(record);
  }

  /** What became of an events step's events, as {@code POST /events} would have answered. */
  void counted(IngestResult step) {
    counts = counts.plus(step);
  }

  private void dropped(DeadLetter letter) {
    ObjectNode record = JSON.objectNode().put("step", step);
    record.setAll(letter.toJson());
    budget.dropped(step, record.toString().length());
    dropped.add(record);
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
