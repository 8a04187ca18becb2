package io.eventide.engine;

import static org.assertj.core.api.Assertions.assertThat;

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
}
