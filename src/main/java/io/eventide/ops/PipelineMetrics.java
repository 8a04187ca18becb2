package io.eventide.ops;

import static io.eventide.ops.MeterNames.PIPELINE;

import io.eventide.core.DeadLetter;
import io.eventide.core.IngestResult;
import io.eventide.engine.DropReason;
import io.eventide.engine.Pane;
import io.eventide.engine.Timing;
import io.eventide.ops.MeterNames.MeterName;
import io.eventide.runtime.RuntimeObserver;
import io.eventide.sink.DeadLetterListener;
import io.eventide.sink.PaneListener;
import io.eventide.sink.PublishedPane;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Counts what the runtime does, per pipeline: events ingested, late, duplicate, clamped and dropped
 * (by the reason of their dead letter, which covers every drop, unreadable NDJSON lines included),
 * panes by timing, and how long each batch took to apply.
 */
@Component
public class PipelineMetrics implements RuntimeObserver, PaneListener, DeadLetterListener {
  private final MeterRegistry registry;

  public PipelineMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void batchApplied(String pipeline, IngestResult result, long nanos) {
    counter(MeterNames.INGESTED, pipeline).increment(result.accepted());
    counter(MeterNames.LATE, pipeline).increment(result.late());
    counter(MeterNames.DUPLICATES, pipeline).increment(result.duplicates());
    counter(MeterNames.FILTERED, pipeline).increment(result.filtered());
    counter(MeterNames.CLAMPED, pipeline).increment(result.clamped());
    batchTimer(pipeline).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void committed(String pipeline, long nanos) {
    commitTimer(pipeline).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void commitFailed(String pipeline) {
    counter(MeterNames.COMMIT_FAILURES, pipeline).increment();
  }

  @Override
  public void onPanes(String pipeline, List<PublishedPane> panes) {
    Map<Timing, Integer> byTiming = new EnumMap<>(Timing.class);
    for (PublishedPane published : panes) {
      Pane pane = published.pane();
      byTiming.merge(pane.info().timing(), 1, Integer::sum);
    }
    byTiming.forEach((timing, n) -> paneCounter(pipeline, timing).increment(n));
  }

  @Override
  public void onDeadLetters(String pipeline, List<DeadLetter> letters) {
    for (DeadLetter letter : letters) {
      droppedCounter(pipeline, letter.reason()).increment();
    }
  }

  /** Registers a pipeline's counters at zero, so that a rate over them exists before any drop. */
  void registerAtZero(String pipeline) {
    counter(MeterNames.INGESTED, pipeline);
    counter(MeterNames.LATE, pipeline);
    counter(MeterNames.DUPLICATES, pipeline);
    counter(MeterNames.FILTERED, pipeline);
    counter(MeterNames.CLAMPED, pipeline);
    MeterNames.DROP_REASONS.forEach(reason -> droppedCounter(pipeline, reason));
    MeterNames.TIMINGS.forEach(timing -> paneCounter(pipeline, timing));
    batchTimer(pipeline);
    counter(MeterNames.COMMIT_FAILURES, pipeline);
  }

  private Counter counter(MeterName meter, String pipeline) {
    return Counter.builder(meter.name())
        .description(meter.description())
        .tag(PIPELINE, pipeline)
        .register(registry);
  }

  private Counter droppedCounter(String pipeline, DropReason reason) {
    return Counter.builder(MeterNames.DROPPED.name())
        .description(MeterNames.DROPPED.description())
        .tag(PIPELINE, pipeline)
        .tag(MeterNames.REASON, reason.wireName())
        .register(registry);
  }

  private Counter paneCounter(String pipeline, Timing timing) {
    return Counter.builder(MeterNames.PANES.name())
        .description(MeterNames.PANES.description())
        .tag(PIPELINE, pipeline)
        .tag(MeterNames.TIMING, timing.name())
        .register(registry);
  }

  private Timer commitTimer(String pipeline) {
    return Timer.builder(MeterNames.COMMIT.name())
        .description(MeterNames.COMMIT.description())
        .tag(PIPELINE, pipeline)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100_000))
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry);
  }

  private Timer batchTimer(String pipeline) {
    return Timer.builder(MeterNames.BATCH.name())
        .description(MeterNames.BATCH.description())
        .tag(PIPELINE, pipeline)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofSeconds(30))
        .register(registry);
  }
}
