package io.eventide.definition;

import io.eventide.engine.AccumulationMode;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import io.eventide.engine.WindowingStrategy;
import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.Aggregates;
import io.eventide.engine.aggregate.NamedAggregates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A validated pipeline definition with every default filled in, and the revision it was stored with
 * ({@link Revision#UNSTORED} as parsed from a request).
 *
 * @param aggregate the single aggregate, or null when the pipeline has named {@code aggregates}
 * @param aggregates the named aggregates in definition order, or none for a single aggregate
 * @param filter the CEL filter an event must pass to be windowed, or null for every event
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
    List<NamedAggregate> aggregates,
    EventExpression filter,
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

  public PipelineDefinition {
    aggregates = List.copyOf(aggregates);
  }

  /** A new instance of what the pipeline computes: its aggregate, or its named aggregates. */
  public Aggregate<?> newAggregate() {
    if (aggregate != null) {
      return Aggregates.create(aggregate.spec());
    }
    List<String> names = new ArrayList<>(aggregates.size());
    List<Aggregate<?>> parts = new ArrayList<>(aggregates.size());
    for (NamedAggregate a : aggregates) {
      names.add(a.name());
      parts.add(Aggregates.create(a.aggregate().spec()));
    }
    return new NamedAggregates(names, parts);
  }

  /** Whether reading an event evaluates CEL: the filter, or a named aggregate's computed input. */
  public boolean evaluatesExpressions() {
    return filter != null
        || aggregates.stream().anyMatch(a -> a.input() instanceof AggregateInput.Computed);
  }

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
        aggregates,
        filter,
        event,
        watermark,
        sinks,
        source,
        stream,
        next);
  }

  /** What is risky about this definition although it is accepted. */
  public List<String> warnings() {
    return PipelineWarnings.of(this, true);
  }

  /** The warnings that hold in {@code /simulate}, whose steps move the watermark. */
  public List<String> simulationWarnings() {
    return PipelineWarnings.of(this, false);
  }
}
