package io.eventide.engine;

import static io.eventide.engine.PaneAssert.assertFullPanes;
import static io.eventide.engine.PaneAssert.full;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Beam's trigger transcripts (sdks/python/apache_beam/transforms/trigger_transcripts.yaml), in our
 * terms. One method per transcript, named after it.
 *
 * <p>Translation rules:
 *
 * <ul>
 *   <li>Transcript times are plain integers; they are milliseconds here, window sizes included.
 *   <li>A transcript window {@code [a, b]} names start and max timestamp: our {@code [a, b + 1)}.
 *   <li>An element's value is its timestamp; {@code input: [...]} is one batch.
 *   <li>The transcripts default to ACCUMULATING mode; so do these tests unless a transcript says
 *       otherwise.
 *   <li>The transcript's end-of-window timestamps are the window's end (Python's old
 *       OutputAtEndOfWindowImpl returned {@code window.end}); Beam's Java runner, our reference,
 *       uses {@code maxTimestamp = end - 1}.
 *   <li>The transcripts are checked in Python by a driver with no garbage collection
 *       (TriggerDriverTranscriptTest never drops expired data and never sets a GC timer), while
 *       their allowed lateness is 0. Beam's Java runner (ReduceFnRunner.onTimers: the end of window
 *       is also the GC time, so the pane is built with isFinished = true;
 *       LateDataDroppingDoFnRunner drops expired elements) marks the on-time pane final and drops
 *       the later data. Each such transcript has a Java-runner test plus a twin with enough allowed
 *       lateness to show the late pane the transcript intends.
 * </ul>
 */
class TriggerTranscriptsTest {

  private static WindowingStrategy fixed10() {
    return WindowingStrategy.of(new WindowFn.Fixed(10, 0)).withMode(AccumulationMode.ACCUMULATING);
  }

  private static WindowingStrategy sessions10() {
    return WindowingStrategy.of(new WindowFn.Session(10)).withMode(AccumulationMode.ACCUMULATING);
  }

  /** One batch whose elements' values are their timestamps. */
  private static EngineTester.Element[] input(long... timestamps) {
    return Arrays.stream(timestamps)
        .mapToObj(ts -> EngineTester.el(ts, ts))
        .toArray(EngineTester.Element[]::new);
  }

  @Test
  void fixed_default() {
    EngineTester t = EngineTester.of(fixed10());
    t.inject(input(1, 2, 3, 10, 11));
    t.advanceWatermark(25);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 9, Timing.ON_TIME, 0, 0, true, true),
        full(10, 20, List.of(10L, 11L), 19, Timing.ON_TIME, 0, 0, true, true));
  }

  @Test
  void fixed_default_late_data() {
    EngineTester t = EngineTester.of(fixed10());
    t.inject(input(1, 2, 3, 10, 11, 25));
    t.advanceWatermark(100);
    // Java: with zero lateness the end of window is the GC time, so these panes are final.
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 9, Timing.ON_TIME, 0, 0, true, true),
        full(10, 20, List.of(10L, 11L), 19, Timing.ON_TIME, 0, 0, true, true),
        full(20, 30, List.of(25L), 29, Timing.ON_TIME, 0, 0, true, true));

    // The transcript's late 7 is beyond the (zero) allowed lateness of [0, 10) in Java.
    t.inject(input(7));
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.takeDropped())
        .containsExactly(
            new EngineTester.Dropped(
                EngineTester.el(7, 7L), new Window(0, 10), DropReason.EXPIRED));
  }

  @Test
  void fixed_default_late_data_withAllowedLateness() {
    EngineTester t = EngineTester.of(fixed10().withAllowedLateness(100));
    t.inject(input(1, 2, 3, 10, 11, 25));
    t.advanceWatermark(100);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 9, Timing.ON_TIME, 0, 0, true, false),
        full(10, 20, List.of(10L, 11L), 19, Timing.ON_TIME, 0, 0, true, false),
        full(20, 30, List.of(25L), 29, Timing.ON_TIME, 0, 0, true, false));

    t.inject(input(7));
    // The late element cannot hold the output watermark (a GC hold does): timestamp is
    // maxTimestamp.
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of(1L, 2L, 3L, 7L), 9, Timing.LATE, 1, 1, false, false));
    assertThat(t.takeDropped()).isEmpty();
  }

  @Test
  void output_time_fn_earliest() {
    EngineTester t = EngineTester.of(fixed10().withTimestampCombiner(TimestampCombiner.EARLIEST));
    t.inject(input(1, 2, 3, 10, 11, 25));
    t.advanceWatermark(100);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 1, Timing.ON_TIME, 0, 0, true, true),
        full(10, 20, List.of(10L, 11L), 10, Timing.ON_TIME, 0, 0, true, true),
        full(20, 30, List.of(25L), 25, Timing.ON_TIME, 0, 0, true, true));
  }

  @Test
  void output_time_fn_latest() {
    EngineTester t = EngineTester.of(fixed10().withTimestampCombiner(TimestampCombiner.LATEST));
    t.inject(input(1, 2, 3, 10, 11, 25));
    t.advanceWatermark(100);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 3, Timing.ON_TIME, 0, 0, true, true),
        full(10, 20, List.of(10L, 11L), 11, Timing.ON_TIME, 0, 0, true, true),
        full(20, 30, List.of(25L), 25, Timing.ON_TIME, 0, 0, true, true));
  }

  /**
   * The custom-timestamping window fn of this transcript is only consulted by the "transformed"
   * combiner (which we do not have), so with END_OF_WINDOW it is plain fixed windows.
   */
  @Test
  void output_time_fn_custom_timestamping_eow() {
    EngineTester t = EngineTester.of(fixed10());
    t.inject(input(1, 2, 3, 10, 11, 25));
    t.advanceWatermark(100);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 9, Timing.ON_TIME, 0, 0, true, true),
        full(10, 20, List.of(10L, 11L), 19, Timing.ON_TIME, 0, 0, true, true),
        full(20, 30, List.of(25L), 29, Timing.ON_TIME, 0, 0, true, true));
  }

  /** As above: with EARLIEST the custom window fn is not consulted. */
  @Test
  void output_time_fn_custom_timestamping_earliest() {
    EngineTester t = EngineTester.of(fixed10().withTimestampCombiner(TimestampCombiner.EARLIEST));
    t.inject(input(1, 2, 3, 10, 11, 25));
    t.advanceWatermark(100);
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 1, Timing.ON_TIME, 0, 0, true, true),
        full(10, 20, List.of(10L, 11L), 10, Timing.ON_TIME, 0, 0, true, true),
        full(20, 30, List.of(25L), 25, Timing.ON_TIME, 0, 0, true, true));
  }

  private static final Trigger EARLY2_LATE3 =
      new Trigger.AfterWatermark(new Trigger.AfterCount(2), new Trigger.AfterCount(3));

  @Test
  void early_late_sessions() {
    EngineTester t = EngineTester.of(sessions10().withTrigger(EARLY2_LATE3));
    t.inject(input(1, 2, 3));
    assertFullPanes(
        t.takePanes(), full(1, 13, List.of(1L, 2L, 3L), 12, Timing.EARLY, 0, -1, true, false));

    t.inject(input(4)); // [1, 14): the early count restarted after the firing; no output
    assertThat(t.takePanes()).isEmpty();

    t.inject(input(5));
    // [1, 15) is a new span, so its pane index starts again at 0.
    assertFullPanes(
        t.takePanes(),
        full(1, 15, List.of(1L, 2L, 3L, 4L, 5L), 14, Timing.EARLY, 0, -1, true, false));

    t.inject(input(6));
    t.advanceWatermark(100);
    // Zero lateness: end of window and GC coincide, so the on-time pane is final (transcript too).
    assertFullPanes(
        t.takePanes(),
        full(1, 16, List.of(1L, 2L, 3L, 4L, 5L, 6L), 15, Timing.ON_TIME, 0, 0, true, true));

    // Java drops these as expired (zero lateness); the Python driver keeps them.
    t.inject(input(1));
    t.inject(input(3, 4));
    assertThat(t.takePanes()).isEmpty();
    assertThat(t.takeDropped())
        .extracting(EngineTester.Dropped::reason)
        .containsExactly(DropReason.EXPIRED, DropReason.EXPIRED, DropReason.EXPIRED);
  }

  @Test
  void early_late_sessions_withAllowedLateness() {
    EngineTester t =
        EngineTester.of(sessions10().withTrigger(EARLY2_LATE3).withAllowedLateness(100));
    t.inject(input(1, 2, 3));
    t.inject(input(4));
    t.inject(input(5));
    t.inject(input(6));
    t.takePanes();
    t.advanceWatermark(100);
    assertFullPanes(
        t.takePanes(),
        full(1, 16, List.of(1L, 2L, 3L, 4L, 5L, 6L), 15, Timing.ON_TIME, 0, 0, true, false));

    // [1, 11) falls inside [1, 16): the merge result is the existing window, which keeps its panes.
    t.inject(input(1));
    assertThat(t.takePanes()).isEmpty();
    t.inject(input(3, 4));
    assertFullPanes(
        t.takePanes(),
        full(
            1,
            16,
            List.of(1L, 1L, 2L, 3L, 3L, 4L, 4L, 5L, 6L),
            15,
            Timing.LATE,
            1,
            1,
            false,
            false));
  }

  @Test
  void garbage_collection() {
    WindowingStrategy s =
        WindowingStrategy.of(new WindowFn.Fixed(10, 0))
            .withTrigger(new Trigger.AfterCount(2))
            .withAllowedLateness(10)
            .withMode(AccumulationMode.DISCARDING);
    EngineTester t = EngineTester.of(s);
    t.inject(input(1, 2, 3, 10, 11, 25));
    // AfterCount(2) fires on the whole batch, then finishes: both panes are last.
    assertFullPanes(
        t.takePanes(),
        full(0, 10, List.of(1L, 2L, 3L), 9, Timing.EARLY, 0, -1, true, true),
        full(10, 20, List.of(10L, 11L), 19, Timing.EARLY, 0, -1, true, true));

    // State: [20, 30) is present; the finished windows only remember that they are closed.
    t.inject(input(4));
    t.inject(input(12));
    assertThat(t.takeDropped())
        .extracting(EngineTester.Dropped::window, EngineTester.Dropped::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(new Window(0, 10), DropReason.CLOSED),
            org.assertj.core.groups.Tuple.tuple(new Window(10, 20), DropReason.CLOSED));

    // Past GC of [0, 10) (9 + 10) its tombstone is gone too: the element is now expired.
    t.advanceWatermark(20);
    t.inject(input(5));
    assertThat(t.takeDropped())
        .extracting(EngineTester.Dropped::reason)
        .containsExactly(DropReason.EXPIRED);

    // [20, 30) never reached its count: its final pane comes at GC (29 + 10). The element hold
    // at 29 kept the output watermark at the window's end, so Java's PaneInfoTracker calls it
    // ON_TIME (not late for output, input watermark past the end, no pane before).
    t.advanceWatermark(39);
    assertThat(t.takePanes()).isEmpty();
    t.advanceWatermark(40);
    assertFullPanes(
        t.takePanes(), full(20, 30, List.of(25L), 29, Timing.ON_TIME, 0, 0, true, true));
    assertThat(t.engine().openWindowCount()).isZero();
  }

  @Test
  void known_late_data_watermark() {
    EngineTester t = EngineTester.of(fixed10().withTimestampCombiner(TimestampCombiner.EARLIEST));
    t.advanceWatermark(5);
    // 2 and 3 are behind the output watermark and cannot hold it; 7 and 8 can.
    t.inject(input(2, 3, 7, 8));
    t.advanceWatermark(11);
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of(2L, 3L, 7L, 8L), 7, Timing.ON_TIME, 0, 0, true, true));
  }

  @Test
  void known_late_data_no_watermark_hold_possible() {
    EngineTester t = EngineTester.of(fixed10().withTimestampCombiner(TimestampCombiner.EARLIEST));
    t.advanceWatermark(8);
    t.inject(input(2, 3, 7));
    t.advanceWatermark(11);
    // No element could hold: the GC hold (9 + 0) gives the timestamp, i.e. the window's
    // maxTimestamp (the transcript's 10 is Python's window end).
    assertFullPanes(
        t.takePanes(), full(0, 10, List.of(2L, 3L, 7L), 9, Timing.ON_TIME, 0, 0, true, true));
  }
}
