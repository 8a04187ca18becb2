package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.AggregateSpec;
import io.eventide.engine.aggregate.Aggregates;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The engine's self-checks are on in tests and trip on state that breaks them. The broken states
 * are made the one way state enters an engine from outside: a stored key, restored after being
 * tampered with.
 */
class InvariantsTest {
  private static final long MINUTE = 60_000;

  /** One-minute windows with a minute of lateness, so end and GC timers differ. */
  private static final WindowingStrategy STRATEGY =
      WindowingStrategy.of(new WindowFn.Fixed(MINUTE, 0)).withAllowedLateness(MINUTE);

  @SuppressWarnings("unchecked")
  private static final Aggregate<Object> SUM =
      (Aggregate<Object>) Aggregates.create(AggregateSpec.of("sum"));

  private static final KeyStateCodec CODEC =
      new KeyStateCodec(SUM, TriggerMachine.compile(STRATEGY.trigger()).slotCount);

  /** The state of key "a" after one element at 10 s: window [0, 1 min) with holds and timers. */
  private static byte[] storedState() {
    EngineTester t = EngineTester.of(STRATEGY, "sum");
    t.engine().trackChanges();
    t.inject(el("a", 10_000, 1));
    return t.drainChangedState();
  }

  /** The stored state with its one window changed by {@code breakIt}. */
  private static byte[] tampered(Consumer<WindowState> breakIt) {
    KeyState k = new KeyState("a");
    CODEC.decode(storedState(), k);
    breakIt.accept(k.windows);
    return CODEC.encode(k);
  }

  private static EngineTester restored(byte[] state) {
    EngineTester t = EngineTester.of(STRATEGY, "sum");
    t.engine().restoreKey("a", state);
    return t;
  }

  @Test
  void thoroughChecksAreOnInTests() {
    assertThat(Invariants.THOROUGH).as("surefire runs with -ea").isTrue();
  }

  /** The order of pane timings is checked always, not only in tests: it costs a comparison. */
  @Test
  void paneTimingsGoForwardOnly() {
    WindowState ws = new WindowState(0, MINUTE);
    assertThatCode(
            () -> {
              Invariants.checkTimingOrder(null, Timing.EARLY, ws);
              Invariants.checkTimingOrder(Timing.EARLY, Timing.EARLY, ws);
              Invariants.checkTimingOrder(Timing.EARLY, Timing.ON_TIME, ws);
              Invariants.checkTimingOrder(Timing.ON_TIME, Timing.LATE, ws);
              Invariants.checkTimingOrder(Timing.LATE, Timing.LATE, ws);
            })
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> Invariants.checkTimingOrder(Timing.LATE, Timing.EARLY, ws))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a EARLY pane of window [0, 60000) follows a LATE pane");
    assertThatThrownBy(() -> Invariants.checkTimingOrder(Timing.ON_TIME, Timing.ON_TIME, ws))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Invariants.checkTimingOrder(Timing.LATE, Timing.ON_TIME, ws))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void anIntactStateRestoresAndGoesOn() {
    EngineTester t = restored(storedState());
    assertThatCode(() -> t.inject(el("a", 20_000, 2)).advanceWatermarkToEnd())
        .doesNotThrowAnyException();
    assertThat(t.takePanes()).extracting(Pane::value).containsExactly(3L);
  }

  @Test
  void aWindowWithoutGarbageCollectionTimerTrips() {
    byte[] state = tampered(ws -> ws.eventTimers &= (byte) ~WindowState.TIMER_AT_GC);
    assertThatThrownBy(() -> restored(state))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("window [0, 60000) of key 'a' has no garbage-collection timer");
  }

  @Test
  void anElementHoldAfterTheWindowTrips() {
    byte[] state = tampered(ws -> ws.elementHold = ws.end + 5);
    assertThatThrownBy(() -> restored(state))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("element hold 60005 of window [0, 60000) is after its end");
  }

  @Test
  void anExtraHoldAwayFromGarbageCollectionTrips() {
    byte[] state = tampered(ws -> ws.extraHold = ws.maxTimestamp() + 1);
    assertThatThrownBy(() -> restored(state))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("extra hold 60000 of window [0, 60000)")
        .hasMessageContaining("not at its garbage-collection time 119999");
  }

  @Test
  void anOpenWindowWithoutEndOfWindowTimerTripsOnceTheKeySettles() {
    byte[] state = tampered(ws -> ws.eventTimers &= (byte) ~WindowState.TIMER_AT_END);
    EngineTester t = restored(state);
    // The restore itself cannot tell (the watermark may not be restored yet); the next batch can.
    assertThatThrownBy(() -> t.inject(el("a", 2 * MINUTE, 2)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("open window [0, 60000) of key 'a' has no end-of-window timer");
  }
}
