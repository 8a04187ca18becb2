package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bound on the windows an engine holds: an element that would open one more is dropped with its
 * own reason, windows already open still take elements, garbage collection frees room, and session
 * merges open nothing.
 */
class OpenWindowLimitTest {
  private static final long MINUTE = 60_000;

  private static EngineTester limited(WindowFn fn, int max) {
    EngineTester t = EngineTester.of(WindowingStrategy.of(fn));
    t.engine().limitOpenWindows(max);
    return t;
  }

  @Test
  void anElementThatWouldOpenOneWindowTooManyIsDroppedWhileOpenWindowsStillTakeElements() {
    EngineTester t = limited(new WindowFn.Fixed(MINUTE, 0), 2);
    t.inject(el("a", 1, "a1"), el("b", 2, "b1"));
    t.inject(el("c", 3, "c1"), el("a", 4, "a2"), el("b", MINUTE + 1, "b2"));

    assertThat(t.takeDropped())
        .containsExactly(
            new EngineTester.Dropped(el("c", 3, "c1"), new Window(0, MINUTE), DropReason.QUOTA),
            new EngineTester.Dropped(
                el("b", MINUTE + 1, "b2"), new Window(MINUTE, 2 * MINUTE), DropReason.QUOTA));
    assertThat(t.engine().openWindowCount()).isEqualTo(2);
    t.advanceWatermark(MINUTE);
    assertThat(t.takePanes())
        .extracting(Pane::key, Pane::value)
        .containsExactlyInAnyOrder(tuple("a", List.of("a1", "a2")), tuple("b", List.of("b1")));
  }

  @Test
  void windowsThatAreCollectedFreeTheirPlace() {
    EngineTester t = limited(new WindowFn.Fixed(MINUTE, 0), 1);
    t.inject(el("a", 1, "a1"));
    t.inject(el("b", MINUTE + 1, "b1"));
    assertThat(t.takeDropped())
        .extracting(EngineTester.Dropped::reason)
        .containsExactly(DropReason.QUOTA);

    t.advanceWatermark(MINUTE);
    assertThat(t.engine().openWindowCount()).isZero();
    t.inject(el("b", MINUTE + 1, "b1"));
    assertThat(t.takeDropped()).isEmpty();
    assertThat(t.engine().openWindowCount()).isEqualTo(1);
  }

  @Test
  void sessionsThatMergeOpenNoWindowAndAMergeFreesPlaces() {
    EngineTester t = limited(new WindowFn.Session(10_000), 2);
    t.injectEach(el("a", 0, 1), el("a", 30_000, 2));
    assertThat(t.engine().openWindowCount()).isEqualTo(2);

    // Each of these only extends a session of the key, or joins two into one.
    t.injectEach(el("a", 8_000, 3), el("a", 25_000, 4), el("a", 17_000, 5));
    assertThat(t.takeDropped()).isEmpty();
    assertThat(t.engine().openWindowCount()).isEqualTo(1);

    t.inject(el("b", 0, 6));
    assertThat(t.engine().openWindowCount()).isEqualTo(2);
    // Two proto-windows that merge with each other, but with no window held: one more session.
    t.inject(el("c", 0, 7), el("c", 5_000, 8));
    assertThat(t.takeDropped())
        .extracting(EngineTester.Dropped::reason, EngineTester.Dropped::window)
        .containsExactly(
            tuple(DropReason.QUOTA, new Window(0, 15_000)),
            tuple(DropReason.QUOTA, new Window(0, 15_000)));
    assertThat(t.engine().openWindowCount()).isEqualTo(2);
  }

  @Test
  void restoredWindowsCountAgainstTheLimit() {
    EngineTester first = EngineTester.of(WindowingStrategy.of(new WindowFn.Fixed(MINUTE, 0)));
    first.engine().trackChanges();
    first.inject(el(1, 1), el(MINUTE + 1, 2));
    byte[] state = first.drainChangedState();

    EngineTester restored = limited(new WindowFn.Fixed(MINUTE, 0), 2);
    restored.engine().restoreKey(EngineTester.KEY, state);
    assertThat(restored.engine().openWindowCount()).isEqualTo(2);
    restored.inject(el(2 * MINUTE + 1, 3), el(2, 4));
    assertThat(restored.takeDropped())
        .extracting(EngineTester.Dropped::reason)
        .containsExactly(DropReason.QUOTA);
    assertThat(restored.lastBatch().wasAdded(1)).isTrue();
  }
}
