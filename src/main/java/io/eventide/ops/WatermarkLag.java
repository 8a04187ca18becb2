package io.eventide.ops;

import io.eventide.engine.Time;

/**
 * Wall clock minus input watermark: how far behind real time the results are (Dataflow's "data
 * freshness"). Never negative, as a watermark ahead of the clock (future skew, +inf after a drain)
 * leaves nothing waiting; NaN before any input.
 */
final class WatermarkLag {
  private WatermarkLag() {}

  static double seconds(long watermark, long now) {
    if (watermark <= Time.MIN) {
      return Double.NaN;
    }
    return Math.max(0, now - watermark) / 1000.0;
  }
}
