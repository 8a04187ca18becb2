package io.eventide.core.render;

import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Time;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/**
 * The texts of the times a shard writes into its pane records, kept for the few that come back pane
 * after pane: a batch's panes mostly share their window's bounds, the watermark and the time they
 * were emitted, and formatting each of the six times of every record again showed in profiles. A
 * small table, a newer time replacing an older in its slot. Not thread-safe: one per writer.
 */
final class TimestampTexts {
  private static final int SLOTS = 16;
  private static final SerializedString END_OF_TIME =
      new SerializedString(Timestamps.formatWatermark(Time.MAX));
  private static final SerializedString BEGINNING_OF_TIME =
      new SerializedString(Timestamps.formatWatermark(Time.MIN));

  private final long[] millis = new long[SLOTS];
  private final SerializedString[] texts = new SerializedString[SLOTS];

  /** {@link Timestamps#format}, quoted for a generator once (see {@link PaneRecords}). */
  SerializableString of(long epochMillis) {
    // Fibonacci hashing: the times that repeat are often multiples of a minute, whose low bits
    // alone would share one slot.
    int slot = (int) ((epochMillis * 0x9E3779B97F4A7C15L) >>> 60);
    SerializedString text = texts[slot];
    if (text != null && millis[slot] == epochMillis) {
      return text;
    }
    text = new SerializedString(Timestamps.format(epochMillis));
    millis[slot] = epochMillis;
    texts[slot] = text;
    return text;
  }

  /** {@link Timestamps#formatWatermark}. */
  SerializableString watermark(long watermark) {
    if (watermark >= Time.MAX) {
      return END_OF_TIME;
    }
    return watermark <= Time.MIN ? BEGINNING_OF_TIME : of(watermark);
  }
}
