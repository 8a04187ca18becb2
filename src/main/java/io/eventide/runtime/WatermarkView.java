package io.eventide.runtime;

import io.eventide.core.WatermarkTracker;
import java.util.List;

/**
 * A pipeline's watermarks now.
 *
 * @param input the input watermark
 * @param output the lowest output watermark over all keys
 * @param wallClock the wall clock when this was read
 * @param sources each source's watermark and idleness
 */
public record WatermarkView(
    long input, long output, long wallClock, List<WatermarkTracker.SourceView> sources) {
  /** Data freshness: how far the input watermark trails the wall clock. */
  public long lagMillis() {
    return wallClock - input;
  }
}
