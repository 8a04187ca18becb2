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

  SimulationRun(PipelineDefinition pipeline, long processingTimeStart, SimulationLimits limits) {
    this.pipeline = pipeline;
    Aggregate<?> aggregate = Aggregates.create(pipeline.aggregate().spec());
    this.reader = EventReader.of(pipeline, aggregate);
    this.clock = new ManualClock(processingTimeStart);
    this.recorder = new SimulationRecorder(pipeline.name(), limits.maxOutputs());
    this.engine = new EventTimeEngine(pipeline.windowingStrategy(), aggregate, clock, recorder);
  }

  void step(int index, SimulationStep step) {
    if (step instanceof SimulationStep.Events events) {
      events(index, events.events());
    } else if (step instanceof SimulationStep.Watermark w) {
      recorder.startStep(index, List.of());
      engine.advanceWatermark(w.watermark());
    } else if (step instanceof SimulationStep.ProcessingTime p) {
      recorder.startStep(index, List.of());
      clock.set(p.time());
      engine.fireProcessingTimers();
    }
  }

  /** One engine batch; events that cannot be read are recorded as invalid and left out. */
  private void events(int index, List<JsonNode> events) {
    List<JsonNode> batchEvents = new ArrayList<>(events.size());
    recorder.startStep(index, batchEvents);
    batch.clear();
    for (JsonNode event : events) {
      EventReadResult read = reader.read(event);
      if (read instanceof Event e) {
        batch.add(e.key(), e.timestamp(), e.value(), e.payload(), e.volume());
        batchEvents.add(event);
      } else {
        recorder.invalid(event, (InvalidEvent) read);
      }
    }
    engine.processBatch(batch);
  }

  SimulationResult result() {
    return new SimulationResult(recorder.outputs(), recorder.dropped(), pipeline.warnings());
  }
}
