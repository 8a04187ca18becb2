package io.eventide.pipeline;

import io.eventide.engine.AccumulationMode;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import io.eventide.engine.WindowingStrategy;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A validated pipeline definition with every default filled in, and the revision it was stored with
 * ({@link Revision#UNSTORED} as parsed from a request).
 *
 * @param stream the stream whose events the pipeline reads besides its own, or null
 */
public record PipelineDefinition(
    String name,
    WindowDefinition window,
    Trigger trigger,
    AccumulationMode accumulation,
    Duration allowedLateness,
    TimestampCombiner timestampCombiner,
    ClosingBehavior closingBehavior,
    OnTimeBehavior onTimeBehavior,
    AggregateDefinition aggregate,
    EventPointers event,
    WatermarkPolicy watermark,
    PipelineSinks sinks,
    PipelineSource source,
    String stream,
    Revision revision) {

  /** Names go into URLs, Redis keys and Kafka topics, hence the narrow alphabet. */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /** The one name {@link #NAME} allows that a pipeline may not have: a route of its own. */
  public static final String RESERVED_NAME = "status";

  public WindowingStrategy windowingStrategy() {
    return new WindowingStrategy(
        window.windowFn(),
        trigger,
        accumulation,
        allowedLateness.toMillis(),
        timestampCombiner,
        closingBehavior,
        onTimeBehavior);
  }

  public PipelineDefinition withRevision(Revision next) {
    return new PipelineDefinition(
        name,
        window,
        trigger,
        accumulation,
        allowedLateness,
        timestampCombiner,
        closingBehavior,
        onTimeBehavior,
        aggregate,
        event,
        watermark,
        sinks,
        source,
        stream,
        next);
  }

  /** What is risky about this definition although it is accepted. */
  public List<String> warnings() {
    return PipelineWarnings.of(this);
  }
}
