package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@link EventTimeEngine#drainChanges} reports, and what restoring a key checks. */
class ChangeTrackingTest {
  private static final long MINUTE = 60_000;

  /** The changes of one drain: key to "added", "changed" or "removed", in report order. */
  private static Map<String, String> drain(EngineTester t) {
    Map<String, String> out = new LinkedHashMap<>();
    t.engine()
        .drainChanges(
            new KeyStateChanges() {
              @Override
              public void changed(String key, byte[] state) {
                assertThat(out.put(key, "changed")).as("%s reported twice", key).isNull();
              }

              @Override
              public void added(String key, byte[] state) {
                assertThat(out.put(key, "added")).as("%s reported twice", key).isNull();
              }

              @Override
              public void removed(String key) {
                assertThat(out.put(key, "removed")).as("%s reported twice", key).isNull();
              }
            });
    return out;
  }

  private static EngineTester tracked(WindowingStrategy strategy) {
    EngineTester t = EngineTester.of(strategy, "sum");
    t.engine().trackChanges();
    return t;
  }

  private static WindowingStrategy fixedMinute() {
    return WindowingStrategy.of(new WindowFn.Fixed(MINUTE, 0));
  }

  @Test
  void withoutTrackingNothingIsReported() {
    EngineTester t = EngineTester.of(fixedMinute(), "sum");
    t.inject(el("a", 1, 1), el("b", 2, 2));
    t.advanceWatermark(MINUTE);
    assertThat(drain(t)).isEmpty();
  }

  @Test
  void onlyTheKeysABatchTouchedAreReported() {
    EngineTester t = tracked(fixedMinute());
    t.inject(el("a", 1, 1), el("b", 2, 2), el("a", 3, 3));
    assertThat(drain(t)).containsExactly(Map.entry("a", "added"), Map.entry("b", "added"));
    t.inject(el("a", 4, 4));
    assertThat(drain(t)).containsExactly(Map.entry("a", "changed"));
    assertThat(drain(t)).isEmpty();
  }

  @Test
  void keysWhoseLastWindowIsCollectedAreReportedRemoved() {
    EngineTester t = tracked(fixedMinute());
    t.inject(el("a", 1, 1), el("b", MINUTE + 1, 2));
    drain(t);
    t.advanceWatermark(MINUTE);
    assertThat(drain(t)).containsExactly(Map.entry("a", "removed"));
    t.advanceWatermark(Time.MAX);
    assertThat(drain(t)).containsExactly(Map.entry("b", "removed"));
  }

  /** The store held the key all along: changed, not added, as nothing removed it there. */
  @Test
  void aKeyRemovedAndCreatedAgainBetweenDrainsIsReportedChanged() {
    EngineTester t = tracked(fixedMinute());
    t.inject(el("a", 1, 1));
    drain(t);
    t.advanceWatermark(MINUTE);
    t.inject(el("a", MINUTE + 1, 2));
    assertThat(drain(t)).containsExactly(Map.entry("a", "changed"));
  }

  /** Once reported removed, the store no longer holds the key: its next windows add it again. */
  @Test
  void aKeyReportedRemovedIsAddedAgainByItsNextWindow() {
    EngineTester t = tracked(fixedMinute());
    t.inject(el("a", 1, 1));
    drain(t);
    t.advanceWatermark(MINUTE);
    assertThat(drain(t)).containsExactly(Map.entry("a", "removed"));
    t.inject(el("a", MINUTE + 1, 2));
    assertThat(drain(t)).containsExactly(Map.entry("a", "added"));
  }

  @Test
  void aKeyThatCameAndWentBetweenDrainsIsNotReported() {
    EngineTester t = tracked(fixedMinute());
    t.advanceWatermark(2 * MINUTE);
    t.inject(el("late", 1, 1)); // expired: the key never gets a window
    assertThat(t.takeDropped()).hasSize(1);
    t.inject(el("brief", 2 * MINUTE, 1));
    t.advanceWatermark(3 * MINUTE);
    assertThat(drain(t)).isEmpty();
  }

  @Test
  void aRestoredKeyIsReportedRemovedWhenItsWindowsGo() {
    EngineTester first = tracked(fixedMinute());
    first.inject(el("a", 1, 5));
    List<byte[]> states = new ArrayList<>();
    first.engine().drainChanges(changes(states));
    EngineTester second = tracked(fixedMinute());
    second.engine().restoreKey("a", states.get(0));
    second.inject(el("a", 2, 1));
    // Restored, so held by the store: changed, not added.
    assertThat(drain(second)).containsExactly(Map.entry("a", "changed"));
    second.advanceWatermark(MINUTE);
    assertThat(second.takePanes()).extracting(Pane::value).containsExactly(6L);
    assertThat(drain(second)).containsExactly(Map.entry("a", "removed"));
  }

  /** The blob of a one-minute window of sums under the default trigger stays a few dozen bytes. */
  @Test
  void aMinuteOfSumsIsSmall() {
    EngineTester t = tracked(fixedMinute());
    long start = 1_767_225_600_000L; // 2026-01-01
    t.advanceWatermark(start);
    t.inject(el("a", start + 1_234, 17), el("a", start + 40_000, 25));
    List<byte[]> states = new ArrayList<>();
    t.engine().drainChanges(changes(states));
    assertThat(states.get(0)).hasSizeLessThanOrEqualTo(32);
  }

  @Test
  void stateOfAnUnknownVersionIsRejected() {
    EngineTester t = tracked(fixedMinute());
    t.inject(el("a", 1, 5));
    List<byte[]> states = new ArrayList<>();
    t.engine().drainChanges(changes(states));
    byte[] future = states.get(0).clone();
    future[0] = (byte) (EventTimeEngine.stateFormatVersion() + 1);
    EventTimeEngine fresh = tracked(fixedMinute()).engine();
    assertThatThrownBy(() -> fresh.restoreKey("a", future))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("format version 2");
    byte[] truncated = java.util.Arrays.copyOf(states.get(0), states.get(0).length - 1);
    assertThatThrownBy(() -> fresh.restoreKey("a", truncated))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("corrupt");
    fresh.restoreKey("a", states.get(0));
    assertThatThrownBy(() -> fresh.restoreKey("a", states.get(0)))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void stateOfAnotherTriggerIsRejected() {
    EngineTester t =
        tracked(fixedMinute().withTrigger(new Trigger.Repeatedly(new Trigger.AfterCount(5))));
    t.inject(el("a", 1, 5));
    List<byte[]> states = new ArrayList<>();
    t.engine().drainChanges(changes(states));
    EventTimeEngine other = tracked(fixedMinute()).engine();
    assertThatThrownBy(() -> other.restoreKey("a", states.get(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("trigger");
  }

  private static KeyStateChanges changes(List<byte[]> states) {
    return new KeyStateChanges() {
      @Override
      public void changed(String key, byte[] state) {
        states.add(state);
      }

      @Override
      public void removed(String key) {
        throw new AssertionError("removed " + key);
      }
    };
  }
}
