package io.eventide.simulation;

import io.eventide.engine.ElementBatch;
import io.eventide.engine.EventTimeEngine;
import io.eventide.engine.ManualClock;
import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.Aggregates;
import io.eventide.pipeline.Event;
import io.eventide.pipeline.EventReadResult;
import io.eventide.pipeline.EventReader;
import io.eventide.pipeline.InvalidEvent;
import io.eventide.pipeline.PipelineDefinition;
import io.eventide.pipeline.WatermarkPolicy;
import io.eventide.runtime.WatermarkTracker;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The state of one simulation in progress. */
final class SimulationRun {
  private final PipelineDefinition pipeline;
  private final EventReader reader;
  private final ManualClock clock;
  private final SimulationRecorder recorder;
  private final EventTimeEngine engine;
  private final ElementBatch batch = new ElementBatch(64);

  /** The live source rules, when the watermark is derived from the events; else null. */
  private final WatermarkTracker sources;

  SimulationRun(
      PipelineDefinition pipeline,
      long processingTimeStart,
      boolean autoWatermark,
      SimulationLimits limits) {
    this.pipeline = pipeline;
    Aggregate<?> aggregate = Aggregates.create(pipeline.aggregate().spec());
    this.reader = EventReader.of(pipeline, aggregate);
    this.clock = new ManualClock(processingTimeStart);
    this.recorder = new SimulationRecorder(pipeline.name(), limits.maxOutputs());
    this.engine = new EventTimeEngine(pipeline.windowingStrategy(), aggregate, clock, recorder);
    WatermarkPolicy policy = pipeline.watermark();
    this.sources =
        autoWatermark
            ? new WatermarkTracker(
                policy.maxOutOfOrderness().toMillis(),
                policy.idleTimeout().toMillis(),
                policy.idleAdvance())
            : null;
  }

  void step(int index, SimulationStep step) {
    if (step instanceof SimulationStep.Events events) {
      events(index, events.events());
    } else if (step instanceof SimulationStep.Watermark w) {
      recorder.startStep(index, List.of());
      if (sources == null) {
        engine.advanceWatermark(w.watermark());
      } else {
        // As a post without a source does live: it moves every source.
        sources.post(null, w.watermark(), clock.now());
        engine.advanceWatermark(sources.current(clock.now()));
      }
    } else if (step instanceof SimulationStep.ProcessingTime p) {
      recorder.startStep(index, List.of());
      clock.set(p.time());
      // The live beat's order: idle sources may move the watermark, then timers fire.
      if (sources != null) {
        engine.advanceWatermark(sources.current(clock.now()));
      }
      engine.fireProcessingTimers();
    }
  }

  /** One engine batch; events that cannot be read are recorded as invalid and left out. */
  private void events(int index, List<JsonNode> events) {
    List<JsonNode> batchEvents = new ArrayList<>(events.size());
    recorder.startStep(index, batchEvents);
    batch.clear();
    long now = clock.now();
    long maxFutureSkew = pipeline.watermark().maxFutureSkew().toMillis();
    for (JsonNode event : events) {
      EventReadResult read = reader.read(event);
      if (!(read instanceof Event e)) {
        recorder.invalid(event, (InvalidEvent) read);
      } else if (sources != null && e.timestamp() > now + maxFutureSkew) {
        recorder.future(event, pipeline.event().timestamp(), pipeline.watermark().maxFutureSkew());
      } else {
        batch.add(e.key(), e.timestamp(), e.value(), e.payload(), e.volume());
        batchEvents.add(event);
        if (sources != null) {
          sources.observe(e.source(), e.timestamp(), now);
        }
      }
    }
    engine.processBatch(batch);
    // Live rule: a batch sees the watermark as it stood when it arrived, then moves it.
    if (sources != null) {
      engine.advanceWatermark(sources.current(now));
    }
  }

  SimulationResult result() {
    return new SimulationResult(recorder.outputs(), recorder.dropped(), pipeline.warnings());
  }
}
