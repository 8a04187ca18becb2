package io.eventide.beam;

import io.eventide.engine.Timing;
import java.util.Comparator;
import java.util.List;

/**
 * A pane as both runners can report it: everything Beam's {@code PaneInfo} and the grouped output
 * say, with the values sorted so that panes compare as multisets of elements.
 */
record ObservedPane(
    String key,
    long windowStart,
    long windowEnd,
    List<Integer> values,
    long timestamp,
    int index,
    long nonSpeculativeIndex,
    Timing timing,
    boolean first,
    boolean last)
    implements Comparable<ObservedPane> {

  private static final Comparator<ObservedPane> ORDER =
      Comparator.comparing(ObservedPane::key)
          .thenComparingLong(ObservedPane::windowStart)
          .thenComparingLong(ObservedPane::windowEnd)
          .thenComparingInt(ObservedPane::index)
          .thenComparing(ObservedPane::toString);

  ObservedPane {
    values = values.stream().sorted().toList();
  }

  @Override
  public int compareTo(ObservedPane o) {
    return ORDER.compare(this, o);
  }
}
