package io.eventide.ops;

import static io.eventide.ops.MeterNames.PIPELINE;

import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Time;
import io.eventide.ops.MeterNames.MeterName;
import io.eventide.runtime.DaemonThreads;
import io.eventide.runtime.OwnedPartitions;
import io.eventide.runtime.PipelineRuntime;
import io.eventide.runtime.RunningPipelines;
import io.eventide.sink.PaneHub;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Gauges of each running pipeline, read when scraped: input watermark, watermark lag, open windows,
 * live pane subscribers. Pipelines start and stop without telling anyone, so a periodic refresh
 * registers the gauges of new ones and removes every series of those that stopped, counters
 * included: a deleted pipeline must not leave series behind. Kafka's series are the Kafka
 * forwarders' own, which run whether or not the pipeline runs here, and go with them.
 */
@Component
public class PipelineGauges implements SmartLifecycle {
  private final MeterRegistry registry;
  private final RunningPipelines runtimes;
  private final PaneHub hub;
  private final ProcessingClock clock;
  private final PipelineMetrics counters;
  private final Set<String> registered = new HashSet<>();

  /** In cluster mode, the partitions this replica owns; null otherwise. */
  private final OwnedPartitions partitions;

  /** Each owned partition's own sources' watermark (cluster mode). */
  private final MultiGauge partitionWatermarks;

  private final Duration period;

  /** The refresh schedule while started; none while the context is stopped. */
  private ScheduledExecutorService refresher;

  public PipelineGauges(
      MeterRegistry registry,
      RunningPipelines runtimes,
      PaneHub hub,
      ProcessingClock clock,
      PipelineMetrics counters,
      MetricsProperties properties,
      ObjectProvider<OwnedPartitions> partitions) {
    this.registry = registry;
    this.partitions = partitions.getIfAvailable();
    this.partitionWatermarks =
        MultiGauge.builder(MeterNames.PARTITION_WATERMARK.name())
            .description(MeterNames.PARTITION_WATERMARK.description())
            .baseUnit("seconds")
            .register(registry);
    this.runtimes = runtimes;
    this.hub = hub;
    this.clock = clock;
    this.counters = counters;
    this.period = properties.refresh();
  }

  @Override
  public synchronized void start() {
    if (refresher == null) {
      refresher =
          Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("eventide-metrics"));
      long ms = period.toMillis();
      refresher.scheduleWithFixedDelay(this::refresh, ms, ms, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public synchronized void stop() {
    if (refresher != null) {
      refresher.shutdownNow();
      refresher = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return refresher != null;
  }

  /**
   * Brings the registered series in line with the pipelines that run or are watched (a pane stream
   * does not start a pipeline, but its subscribers count).
   */
  public synchronized void refresh() {
    Set<String> running = new HashSet<>(hub.watchedPipelines());
    for (PipelineRuntime r : runtimes.all()) {
      running.add(r.definition().name());
    }
    if (partitions != null) {
      List<MultiGauge.Row<?>> rows = new ArrayList<>();
      for (OwnedPartitions.Id id : partitions.ids()) {
        running.add(id.pipeline());
        rows.add(
            MultiGauge.Row.of(
                Tags.of(PIPELINE, id.pipeline(), "partition", Integer.toString(id.partition())),
                partitions,
                owned -> seconds(owned.sourceWatermark(id))));
      }
      partitionWatermarks.register(rows, true);
    }
    for (String name : running) {
      if (registered.add(name)) {
        register(name);
      }
    }
    registered.retainAll(running);
    for (Meter meter : registry.getMeters()) {
      String pipeline = meter.getId().getTag(PIPELINE);
      String name = meter.getId().getName();
      if (pipeline != null
          && name.startsWith(MeterNames.PREFIX)
          && !name.startsWith(MeterNames.KAFKA_PREFIX)
          && !running.contains(pipeline)) {
        registry.remove(meter);
      }
    }
  }

  private void register(String name) {
    counters.registerAtZero(name);
    gauge(MeterNames.INPUT_WATERMARK, name, "seconds", r -> seconds(inputWatermark(r)));
    gauge(
        MeterNames.WATERMARK_LAG,
        name,
        "seconds",
        r -> WatermarkLag.seconds(inputWatermark(r), clock.now()));
    gauge(
        MeterNames.OPEN_WINDOWS,
        name,
        null,
        r -> r.stream().mapToInt(PipelineRuntime::openWindowsLastBeat).sum());
    Gauge.builder(MeterNames.SSE_SUBSCRIBERS.name(), hub, h -> h.subscriberCount(name))
        .description(MeterNames.SSE_SUBSCRIBERS.description())
        .tag(PIPELINE, name)
        .register(registry);
  }

  /**
   * A gauge over the pipeline's current runtime (which a reset replaces) or, in cluster mode, the
   * runtimes of its partitions this replica owns; NaN when there is none.
   */
  private void gauge(
      MeterName meter,
      String pipeline,
      String unit,
      ToDoubleFunction<List<PipelineRuntime>> value) {
    Gauge.builder(
            meter.name(),
            runtimes,
            all -> {
              List<PipelineRuntime> running = runtimesOf(pipeline);
              return running.isEmpty() ? Double.NaN : value.applyAsDouble(running);
            })
        .description(meter.description())
        .baseUnit(unit)
        .tag(PIPELINE, pipeline)
        .register(registry);
  }

  private List<PipelineRuntime> runtimesOf(String pipeline) {
    PipelineRuntime whole = runtimes.find(pipeline);
    if (whole != null) {
      return List.of(whole);
    }
    return partitions == null ? List.of() : partitions.runtimes(pipeline);
  }

  /** The lowest input watermark of the runtimes (in cluster mode, they share one view). */
  private static long inputWatermark(List<PipelineRuntime> running) {
    return running.stream().mapToLong(PipelineRuntime::inputWatermark).min().orElse(Time.MIN);
  }

  private static double seconds(long w) {
    if (w <= Time.MIN) {
      return Double.NaN;
    }
    return w >= Time.MAX ? Double.POSITIVE_INFINITY : w / 1000.0;
  }
}
