package io.eventide.definition;

import io.eventide.definition.kafka.KafkaSinkWarnings;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.Trigger;
import io.eventide.engine.aggregate.Aggregates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What is risky about an accepted definition; returned with it so that the caller can decide. */
final class PipelineWarnings {
  private static final Duration LONG_LATENESS = Duration.ofDays(7);

  private PipelineWarnings() {}

  /**
   * The warnings of a pipeline run live; {@code /simulate}'s steps set the watermark themselves, so
   * a simulation leaves out what concerns how live sources move it.
   */
  static List<String> of(PipelineDefinition d, boolean live) {
    List<String> warnings = new ArrayList<>();
    if (live && !d.watermark().idleAdvance()) {
      warnings.add(
          "the watermark moves only when events or watermark posts arrive: when traffic stops,"
              + " the last windows do not fire and nothing becomes final; set"
              + " watermark.idleAdvance to let it follow the wall clock once every source is idle,"
              + " or POST /pipelines/{name}/watermark when a producer is done");
    }
    if (finishesBeforeGarbageCollection(d)) {
      warnings.add(
          "the trigger can finish before the window is garbage-collected: Beam's Java SDK refuses"
              + " this at GroupByKey; later elements for a finished window are dropped as closed"
              + " (wrap it in repeatedly, or give afterWatermark late firings)");
    }
    if (d.window() instanceof WindowDefinition.Global && firesOnlyAtEndOfTime(d.trigger())) {
      warnings.add(
          "the global window with this trigger fires only when the watermark reaches the end of"
              + " time ('+inf'), which an unbounded stream never does: add early firings or use a"
              + " repeated trigger");
    }
    if (d.accumulation() == AccumulationMode.DISCARDING) {
      for (String aggregate : needingPartials(d)) {
        warnings.add(
            "discarding panes of "
                + aggregate
                + " cannot be combined from their values: combine them downstream via each"
                + " record's partial");
      }
    }
    if (d.allowedLateness().compareTo(LONG_LATENESS) > 0) {
      warnings.add(
          "allowedLateness "
              + d.allowedLateness()
              + " is longer than 7 days: the state of every window is kept that long");
    }
    warnings.addAll(KafkaSinkWarnings.of(d.sinks().kafka(), d.accumulation()));
    return warnings;
  }

  /** The aggregates whose panes need their partial to be combined: "mean", or "p99 (quantiles)". */
  private static List<String> needingPartials(PipelineDefinition d) {
    if (d.aggregate() != null) {
      return needsPartialToCombine(d.aggregate()) ? List.of(d.aggregate().type()) : List.of();
    }
    return d.aggregates().stream()
        .filter(a -> needsPartialToCombine(a.aggregate()))
        .map(a -> a.name() + " (" + a.aggregate().type() + ")")
        .toList();
  }

  private static boolean needsPartialToCombine(AggregateDefinition a) {
    return Aggregates.create(a.spec()).needsPartialToCombine();
  }

  /**
   * Beam's rule: a trigger that may finish loses data, except afterWatermark (with or without early
   * firings) when there is no lateness, as the window then ends at the on-time pane anyway.
   */
  private static boolean finishesBeforeGarbageCollection(PipelineDefinition d) {
    Trigger t = d.trigger();
    if (!t.mayFinish()) {
      return false;
    }
    return !(t instanceof Trigger.AfterWatermark && d.allowedLateness().isZero());
  }

  private static boolean firesOnlyAtEndOfTime(Trigger t) {
    return t instanceof Trigger.Default
        || t instanceof Trigger.Never
        || (t instanceof Trigger.AfterWatermark w && w.early() == null);
  }
}
