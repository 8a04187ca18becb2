package io.eventide.simulation;

import io.eventide.core.DirectShards;
import io.eventide.core.IngestBounds;
import io.eventide.core.IngestResult;
import io.eventide.core.OutputProgress;
import io.eventide.core.PipelineCore;
import io.eventide.core.ShardCore;
import io.eventide.core.ShardSnapshot;
import io.eventide.core.ShardStep;
import io.eventide.core.WatermarkMode;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.engine.ManualClock;
import io.eventide.engine.Time;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The state of one simulation in progress: the live pipeline core with one shard, on a manual
 * clock. Every rule of the live runtime applies, since it is the same code.
 */
final class SimulationRun {
  private final PipelineDefinition pipeline;
  private final ManualClock clock;
  private final PipelineCore core;
  private final DirectShards shards;
  private final SimulationRecorder recorder;

  /** The step being run, which the budget names when it is spent. */
  private int step;

  /** Whether progress is recorded, and the last recorded. */
  private final boolean progress;

  private OutputProgress recorded = OutputProgress.NONE;

  /** The shard's output watermark after its last step; none before its first. */
  private long output = Time.MIN;

  SimulationRun(
      PipelineDefinition pipeline,
      long processingTimeStart,
      boolean autoWatermark,
      boolean progress,
      SimulationLimits limits,
      SimulationBudget budget) {
    this.pipeline = pipeline;
    this.progress = progress;
    this.clock = new ManualClock(processingTimeStart);
    this.recorder = new SimulationRecorder(budget);
    this.shards =
        new DirectShards(
            new ShardCore(
                0,
                IngestBounds.DEFAULT.maxOpenWindows(),
                pipeline,
                clock,
                false,
                ShardSnapshot.EMPTY,
                IngestBounds.DEFAULT,
                chars -> budget.pane(step, chars)));
    this.core =
        new PipelineCore(
            pipeline,
            autoWatermark ? WatermarkMode.FROM_SOURCES : WatermarkMode.EXPLICIT,
            1,
            Time.MIN,
            null,
            false,
            IngestBounds.DEFAULT);
  }

  void step(int index, SimulationStep step) {
    this.step = index;
    recorder.startStep(index);
    if (step instanceof SimulationStep.Events events) {
      events(events.events());
    } else if (step instanceof SimulationStep.Watermark w) {
      // As a post without a source does live: it moves every source.
      record(core.postWatermark(null, w.watermark(), clock.now(), shards).steps());
    } else if (step instanceof SimulationStep.ProcessingTime p) {
      clock.set(p.time());
      record(core.beat(clock.now(), shards));
    }
    // After the step's panes, as a live stream sends it after the commit that moved it.
    if (progress) {
      OutputProgress now =
          recorded.max(new OutputProgress(Math.min(output, core.watermark()), core.watermark()));
      if (!now.equals(recorded)) {
        recorded = now;
        recorder.progress(pipeline.name(), now);
      }
    }
  }

  private void record(List<ShardStep> steps) {
    recorder.record(steps);
    for (ShardStep s : steps) {
      output = s.outputWatermark();
    }
  }

  private void events(List<JsonNode> events) {
    long now = clock.now();
    PipelineCore.ReadBatch batch = core.read(EventTexts.of(events), i -> null, now);
    List<ShardStep> steps = core.apply(batch, now, shards);
    recorder.rejected(batch.rejected());
    record(steps);
    IngestResult applied = IngestResult.EMPTY;
    for (ShardStep s : steps) {
      applied = applied.plus(s.outcome());
    }
    recorder.counted(batch.result(applied));
  }

  SimulationResult result() {
    return new SimulationResult(
        recorder.outputs(), recorder.dropped(), recorder.counts(), pipeline.simulationWarnings());
  }
}
