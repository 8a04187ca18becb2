package io.eventide.ops;

import static io.eventide.ops.MeterNames.PIPELINE;

import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Time;
import io.eventide.ops.MeterNames.MeterName;
import io.eventide.runtime.PipelineRuntime;
import io.eventide.runtime.RunningPipelines;
import io.eventide.sink.PaneHub;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Builds {@link PipelineStatus}es from what the runtime, the pane hub and the metrics already know;
 * the event rate is the ingested counter's growth between two reads at least a second apart.
 */
@Component
public class PipelineStatuses {
  private static final long RATE_PERIOD = TimeUnit.SECONDS.toNanos(1);

  private final MeterRegistry registry;
  private final RunningPipelines runtimes;
  private final PaneHub hub;
  private final ProcessingClock clock;
  private final Map<String, Sample> samples = new ConcurrentHashMap<>();

  private record Sample(long atNanos, double count, double perSecond) {}

  public PipelineStatuses(
      MeterRegistry registry, RunningPipelines runtimes, PaneHub hub, ProcessingClock clock) {
    this.registry = registry;
    this.runtimes = runtimes;
    this.hub = hub;
    this.clock = clock;
  }

  public PipelineStatus of(String name) {
    PipelineRuntime r = runtimes.find(name);
    long watermark = r == null ? Time.MIN : r.inputWatermark();
    PipelineStatus.State state =
        r == null
            ? PipelineStatus.State.NOT_STARTED
            : r.failed() ? PipelineStatus.State.FAILED : PipelineStatus.State.RUNNING;
    double ingested = count(MeterNames.INGESTED, name);
    return new PipelineStatus(
        name,
        state,
        watermark,
        WatermarkLag.seconds(watermark, clock.now()),
        rate(name, ingested),
        (long) ingested,
        (long) count(MeterNames.LATE, name),
        (long) count(MeterNames.DROPPED, name),
        (long) count(MeterNames.PANES, name),
        r == null ? 0 : r.openWindowsLastBeat(),
        hub.subscriberCount(name));
  }

  /** Forgets the rates of pipelines no longer listed, so that deleted ones leave nothing here. */
  public void retainOnly(Collection<String> names) {
    samples.keySet().retainAll(names);
  }

  private double count(MeterName meter, String pipeline) {
    return registry.find(meter.name()).tag(PIPELINE, pipeline).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private double rate(String pipeline, double count) {
    long now = System.nanoTime();
    return samples
        .compute(
            pipeline,
            (k, last) -> {
              if (last == null) {
                return new Sample(now, count, 0);
              }
              long elapsed = now - last.atNanos();
              if (elapsed < RATE_PERIOD) {
                return last;
              }
              return new Sample(now, count, (count - last.count()) * 1e9 / elapsed);
            })
        .perSecond();
  }
}
