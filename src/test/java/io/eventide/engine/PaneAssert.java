package io.eventide.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.List;

/** Compact assertions on panes, so that a test reads like the timeline it describes. */
public final class PaneAssert {
  private PaneAssert() {}

  /** A pane's essentials: window, value, timing, index, last. */
  public record Expected(
      long start, long end, Object value, Timing timing, int index, boolean last) {}

  public static Expected pane(
      long start, long end, Object value, Timing timing, int index, boolean last) {
    return new Expected(start, end, value, timing, index, last);
  }

  public static void assertPanes(List<Pane> actual, Expected... expected) {
    List<Expected> got =
        actual.stream()
            .map(
                p ->
                    new Expected(
                        p.window().start(),
                        p.window().end(),
                        p.value(),
                        p.info().timing(),
                        p.info().index(),
                        p.info().last()))
            .toList();
    assertThat(got).containsExactly(expected);
  }

  /** Values of the panes, in emission order. */
  public static List<Object> values(List<Pane> panes) {
    return panes.stream().map(Pane::value).toList();
  }

  /** Every field of a pane a consumer reads; list values compare as multisets. */
  public record Full(
      long start,
      long end,
      Object value,
      long timestamp,
      Timing timing,
      int index,
      int nonSpeculativeIndex,
      boolean first,
      boolean last) {}

  public static Full full(
      long start,
      long end,
      Object value,
      long timestamp,
      Timing timing,
      int index,
      int nonSpeculativeIndex,
      boolean first,
      boolean last) {
    return new Full(
        start, end, normalize(value), timestamp, timing, index, nonSpeculativeIndex, first, last);
  }

  /** Asserts the panes (not retractions), in emission order, on every field of {@link Full}. */
  public static void assertFullPanes(List<Pane> actual, Full... expected) {
    List<Full> got =
        actual.stream()
            .filter(p -> !p.retraction())
            .map(
                p ->
                    new Full(
                        p.window().start(),
                        p.window().end(),
                        normalize(p.value()),
                        p.timestamp(),
                        p.info().timing(),
                        p.info().index(),
                        p.info().nonSpeculativeIndex(),
                        p.info().first(),
                        p.info().last()))
            .toList();
    assertThat(got).containsExactly(expected);
  }

  /** A list value sorted into a canonical order, so that lists compare as multisets. */
  static Object normalize(Object value) {
    if (value instanceof List<?> list) {
      return list.stream().map(PaneAssert::normalize).sorted(CANONICAL).toList();
    }
    return value instanceof Integer i ? Long.valueOf(i) : value;
  }

  private static final Comparator<Object> CANONICAL =
      Comparator.comparing((Object o) -> o.getClass().getName()).thenComparing(String::valueOf);
}
