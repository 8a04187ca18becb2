package io.eventide.engine;

import static io.eventide.engine.EngineTester.el;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.AggregateSpec;
import io.eventide.engine.aggregate.Aggregates;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Key states stored by an earlier build still decode, and this build writes the same bytes for the
 * same history: format version 1 did not change when windows began to keep their accumulator inline
 * and their rarer state apart. The hex strings were written by the engine of commit 54876b0. Since
 * restatements, an accumulating window keeps its last value after an on-time or late pane (the
 * layout's optional last value, which only retracting windows had used): for that history this
 * build writes the same bytes plus the value, and still reads the earlier ones.
 */
class StoredStateCompatibilityTest {
  private static final long SECOND = 1_000;
  private static final WindowFn MINUTE = new WindowFn.Fixed(60 * SECOND, 0);

  private record History(
      String name,
      WindowingStrategy strategy,
      String aggregate,
      Consumer<EngineTester> run,
      String stored,
      String writtenNow) {
    History(
        String name,
        WindowingStrategy strategy,
        String aggregate,
        Consumer<EngineTester> run,
        String stored) {
      this(name, strategy, aggregate, run, stored, stored);
    }
  }

  private static final List<History> HISTORIES =
      List.of(
          new History(
              "sum, early and late firings, accumulating",
              WindowingStrategy.of(MINUTE)
                  .withTrigger(
                      new Trigger.AfterWatermark(
                          new Trigger.AfterCount(2), new Trigger.AfterCount(1)))
                  .withMode(AccumulationMode.ACCUMULATING)
                  .withAllowedLateness(60 * SECOND),
              "sum",
              t ->
                  t.inject(el("a", 10 * SECOND, 1.5), el("a", 20 * SECOND, 2))
                      .inject(el("a", 30 * SECOND, 4), el("a", 70 * SECOND, 8))
                      .advanceWatermark(65 * SECOND)
                      .inject(el("a", 40 * SECOND, 16)),
              "010200e0d4038604020200000003020301403780000000000000c0a907e0d403cf01bea907000202"
                  + "00000000002000",
              // The LATE pane's value, 23.5, kept for the next pane to restate: flag bit 5 and
              // the value after the accumulator.
              "010200e0d403a60402020000000302030140378000000000000006014037800000000000c0a907e0d4"
                  + "03cf01bea90700020200000000002000"),
          new History(
              "count, merged sessions",
              WindowingStrategy.of(new WindowFn.Session(10 * SECOND)),
              "count",
              t ->
                  t.inject(el("a", 1 * SECOND, 1), el("a", 5 * SECOND, 1))
                      .inject(el("a", 12 * SECOND, 1), el("a", 40 * SECOND, 1))
                      .advanceWatermark(3 * SECOND),
              "0102d00f88a4015f018ec8028ec8020000000000000380f104904e4f019e9c0100000000000001"),
          new History(
              "mean, retracting",
              WindowingStrategy.of(MINUTE)
                  .withTrigger(new Trigger.Repeatedly(new Trigger.AfterCount(1)))
                  .withMode(AccumulationMode.RETRACTING)
                  .withAllowedLateness(30 * SECOND),
              "mean",
              t -> t.inject(el("a", 10 * SECOND, 3)).inject(el("a", 11 * SECOND, 5)),
              "010100e0d403a602000100000200012000020408"),
          new History(
              "sum, repeated processing-time trigger",
              WindowingStrategy.of(MINUTE)
                  .withTrigger(new Trigger.Repeatedly(new Trigger.AfterProcessingTime(5 * SECOND))),
              "sum",
              t ->
                  t.processingTime(100 * SECOND)
                      .inject(el("a", 10 * SECOND, 3), el("a", 61 * SECOND, 1))
                      .advanceProcessingTime(106 * SECOND)
                      .processingTime(107 * SECOND)
                      .inject(el("a", 12 * SECOND, 5)),
              "010200e0d4034f02bea907000180d60d0180d60d0100011400c0a907e0d40346010001ffffffffff"
                  + "ffffffff01000100010000"));

  @Test
  void thisBuildWritesWhatTheEarlierOneWrote() {
    for (History h : HISTORIES) {
      assertThat(HexFormat.of().formatHex(stateOfA(h))).as(h.name()).isEqualTo(h.writtenNow());
    }
  }

  @Test
  void statesWrittenEarlierDecodeAndEncodeAgainUnchanged() {
    for (History h : HISTORIES) {
      KeyStateCodec codec = codec(h);
      KeyState k = new KeyState("a");
      codec.decode(HexFormat.of().parseHex(h.stored()), k);
      assertThat(HexFormat.of().formatHex(codec.encode(k))).as(h.name()).isEqualTo(h.stored());
    }
  }

  @Test
  void anEngineRestoredFromThemGoesOnAsTheOneThatWroteThem() {
    for (History h : HISTORIES) {
      EngineTester original = EngineTester.of(h.strategy(), h.aggregate());
      h.run().accept(original);
      original.takePanes();
      EngineTester restored = EngineTester.of(h.strategy(), h.aggregate());
      restored.engine().restoreKey("a", HexFormat.of().parseHex(h.stored()));
      restored.engine().restoreInputWatermark(original.engine().inputWatermark());
      for (EngineTester t : List.of(original, restored)) {
        t.advanceProcessingTime(200 * SECOND)
            .inject(el("a", 50 * SECOND, 7))
            .advanceWatermarkToEnd();
      }
      assertThat(restored.takePanes())
          .as(h.name())
          .extracting(Pane::key, Pane::window, Pane::value)
          .containsExactlyElementsOf(
              original.takePanes().stream()
                  .filter(p -> p.key().equals("a"))
                  .map(p -> org.assertj.core.groups.Tuple.tuple(p.key(), p.window(), p.value()))
                  .toList());
    }
  }

  @SuppressWarnings("unchecked")
  private static KeyStateCodec codec(History h) {
    Aggregate<?> aggregate = Aggregates.create(AggregateSpec.of(h.aggregate()));
    return new KeyStateCodec(
        (Aggregate<Object>) aggregate, TriggerMachine.compile(h.strategy().trigger()).slotCount);
  }

  private static byte[] stateOfA(History h) {
    EngineTester t = EngineTester.of(h.strategy(), h.aggregate());
    t.engine().trackChanges();
    h.run().accept(t);
    return t.drainChangedState();
  }
}
