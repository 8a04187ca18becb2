package io.eventide.ops;

import io.eventide.core.IngestResult;
import io.eventide.engine.ProcessingClock;
import io.eventide.runtime.PipelineRuntime;
import io.eventide.runtime.RunningPipelines;
import io.eventide.runtime.RuntimeObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Remembers, per pipeline, when events last arrived and when the input watermark last advanced. A
 * pipeline is stalled when events arrived within the threshold but the watermark has not moved for
 * longer: a lagging or stuck source is holding it back. A pipeline that receives nothing is idle,
 * not stalled, and a large lag alone is no stall either (replaying history is legitimate).
 */
@Component
public class WatermarkStalls implements RuntimeObserver {
  private final Map<String, Progress> progress = new ConcurrentHashMap<>();
  private final ProcessingClock clock;

  /** Lazy: the runtimes take every observer, this one included, when they are built. */
  private final ObjectProvider<RunningPipelines> runtimes;

  /** A stalled pipeline: its watermark, and since when neither it has moved. */
  public record Stall(String pipeline, long watermark, long advancedAt, long lastEventAt) {}

  private static final class Progress {
    long watermark;
    long advancedAt;
    long lastEventAt = Long.MIN_VALUE;

    Progress(long watermark, long now) {
      this.watermark = watermark;
      this.advancedAt = now;
    }
  }

  public WatermarkStalls(ProcessingClock clock, ObjectProvider<RunningPipelines> runtimes) {
    this.clock = clock;
    this.runtimes = runtimes;
  }

  @Override
  public void batchApplied(String pipeline, IngestResult result, long nanos) {
    if (result.equals(IngestResult.EMPTY)) {
      return;
    }
    PipelineRuntime runtime = runtimes.getObject().find(pipeline);
    if (runtime != null) {
      long now = clock.now();
      Progress p = observe(pipeline, runtime.inputWatermark(), now);
      synchronized (p) {
        p.lastEventAt = Math.max(p.lastEventAt, now);
      }
    }
  }

  /** The running pipelines that are stalled now, by name; forgets those that stopped. */
  public List<Stall> stalled(Duration threshold) {
    long now = clock.now();
    long limit = threshold.toMillis();
    Set<String> running = new HashSet<>();
    List<Stall> out = new ArrayList<>();
    for (PipelineRuntime r : runtimes.getObject().all()) {
      String name = r.definition().name();
      running.add(name);
      Progress p = observe(name, r.inputWatermark(), now);
      synchronized (p) {
        if (p.lastEventAt >= now - limit && p.advancedAt < now - limit) {
          out.add(new Stall(name, p.watermark, p.advancedAt, p.lastEventAt));
        }
      }
    }
    progress.keySet().retainAll(running);
    out.sort((a, b) -> a.pipeline().compareTo(b.pipeline()));
    return out;
  }

  private Progress observe(String pipeline, long watermark, long now) {
    Progress p = progress.computeIfAbsent(pipeline, n -> new Progress(watermark, now));
    synchronized (p) {
      // Lower means a reset replaced the runtime: its watermark starts afresh.
      if (watermark != p.watermark) {
        p.watermark = watermark;
        p.advancedAt = now;
      }
    }
    return p;
  }
}
