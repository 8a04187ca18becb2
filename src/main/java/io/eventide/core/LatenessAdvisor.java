package io.eventide.core;

import io.eventide.engine.WindowFn;
import java.util.HashMap;
import java.util.Map;

/**
 * What a pipeline's events needed of {@code allowedLateness}, per watermark source: an event's
 * <em>need</em> is how far the input watermark was past the end (the max timestamp) of its window
 * when it arrived, 0 when it came on time. It is exactly the lateness that decides whether the
 * engine keeps the event: a window takes it while {@code need <= allowedLateness}. For an event in
 * several windows (sliding) it is the largest over them, what lateness must cover for every one of
 * them to keep it; for sessions it is that of the event's own proto-window {@code [t, t + gap)},
 * which is the window the engine checks before merging.
 *
 * <p>On-time events are counted, the others go to a KLL sketch ({@link LatenessRecord}), so that
 * the quantiles keep their meaning exactly and the sketch's rank error applies to late events
 * alone. Sources beyond {@code maxSources} are counted together. Not thread-safe: the {@link
 * PipelineCore} calls it under its owner's order.
 */
final class LatenessAdvisor {
  private final WindowFn windows;
  private final long[] starts;
  private final long[] ends;
  private final int maxSources;
  private final long writeInterval;
  private final Map<String, LatenessRecord> sources = new HashMap<>();
  private LatenessRecord others;

  /** The record last looked up and its source: a batch's events mostly come from one source. */
  private String lastName;

  private LatenessRecord last;

  private boolean changed;
  private boolean everWritten;
  private long written;

  /**
   * @param restored what {@link #change} returned last, or null
   */
  LatenessAdvisor(WindowFn windows, int maxSources, long writeInterval, String restored) {
    this.windows = windows;
    this.starts = new long[windows.maxWindowsPerElement()];
    this.ends = new long[windows.maxWindowsPerElement()];
    this.maxSources = maxSources;
    this.writeInterval = writeInterval;
    if (restored != null) {
      LatenessRecords.Decoded decoded = LatenessRecords.decode(restored);
      sources.putAll(decoded.sources());
      others = decoded.others();
    }
  }

  /**
   * An event of {@code source} (null: the default) at {@code timestamp}, under {@code watermark}.
   */
  void observe(String source, long timestamp, long watermark) {
    LatenessRecord record = record(source == null ? WatermarkTracker.DEFAULT_SOURCE : source);
    changed = true;
    // A window holding the event ends after it: an event not behind the watermark is on time.
    if (timestamp >= watermark) {
      record.onTime++;
      return;
    }
    int n = windows.assign(timestamp, starts, ends);
    long need = 0;
    for (int i = 0; i < n; i++) {
      need = Math.max(need, watermark - (ends[i] - 1));
    }
    record.add(need);
  }

  /**
   * The advisor's state when it changed and {@code writeInterval} passed since it was last taken,
   * else null: the sketches are a few kilobytes each, too much to write with every commit.
   */
  String change(long now) {
    if (!changed || (everWritten && now - written < writeInterval)) {
      return null;
    }
    changed = false;
    everWritten = true;
    written = now;
    return LatenessRecords.encode(sources, others);
  }

  private LatenessRecord record(String name) {
    if (name.equals(lastName)) {
      return last;
    }
    LatenessRecord r = sources.get(name);
    if (r == null) {
      if (sources.size() < maxSources) {
        r = new LatenessRecord();
        sources.put(name, r);
      } else {
        if (others == null) {
          others = new LatenessRecord();
        }
        r = others;
      }
    }
    lastName = name;
    last = r;
    return r;
  }
}
