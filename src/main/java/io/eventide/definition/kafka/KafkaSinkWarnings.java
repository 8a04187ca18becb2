package io.eventide.definition.kafka;

import io.eventide.engine.AccumulationMode;
import java.util.List;

/**
 * Pairings of accumulation mode and Kafka sink mode whose records a naive consumer would get wrong.
 * Retracting pairs with both modes: its records carry their own corrections.
 */
public final class KafkaSinkWarnings {
  private KafkaSinkWarnings() {}

  /**
   * The warnings for a pipeline whose Kafka sink (null when it has none) gets panes of {@code
   * mode}.
   */
  public static List<String> of(KafkaSinkDefinition sink, AccumulationMode accumulation) {
    if (sink == null) {
      return List.of();
    }
    if (sink.mode() == KafkaSinkMode.APPEND && accumulation == AccumulationMode.ACCUMULATING) {
      return List.of(
          "accumulating panes into the append topic "
              + sink.topic()
              + ": every record holds the window's whole value so far, so adding records up counts"
              + " elements again; a consumer must keep only the record with the highest pane index"
              + " per key and window (or use mode changelog, or accumulation retracting)");
    }
    if (sink.mode() == KafkaSinkMode.CHANGELOG && accumulation == AccumulationMode.DISCARDING) {
      return List.of(
          "discarding panes into the changelog topic "
              + sink.topic()
              + ": each record holds only what arrived since the previous pane, yet compaction"
              + " keeps only the latest record per key and window; use mode append (and add the"
              + " records up), or accumulation accumulating");
    }
    return List.of();
  }
}
