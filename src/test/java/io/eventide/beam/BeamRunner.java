package io.eventide.beam;

import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.Time;
import io.eventide.engine.Timing;
import io.eventide.engine.Trigger;
import io.eventide.engine.Window;
import io.eventide.engine.WindowFn;
import io.eventide.engine.WindowingStrategy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.options.PipelineOptions.CheckEnabled;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.windowing.AfterAll;
import org.apache.beam.sdk.transforms.windowing.AfterEach;
import org.apache.beam.sdk.transforms.windowing.AfterFirst;
import org.apache.beam.sdk.transforms.windowing.AfterPane;
import org.apache.beam.sdk.transforms.windowing.AfterProcessingTime;
import org.apache.beam.sdk.transforms.windowing.AfterWatermark;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.transforms.windowing.DefaultTrigger;
import org.apache.beam.sdk.transforms.windowing.FixedWindows;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.IntervalWindow;
import org.apache.beam.sdk.transforms.windowing.Never;
import org.apache.beam.sdk.transforms.windowing.PaneInfo;
import org.apache.beam.sdk.transforms.windowing.Repeatedly;
import org.apache.beam.sdk.transforms.windowing.Sessions;
import org.apache.beam.sdk.transforms.windowing.SlidingWindows;
import org.apache.beam.sdk.transforms.windowing.TimestampCombiner;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Runs a single-key {@link Scenario} through Apache Beam's DirectRunner: TestStream, Window,
 * GroupByKey, and a DoFn that records every grouped output into a static sink.
 *
 * <p>Why one key per pipeline: Beam keeps one output watermark per GroupByKey across all keys,
 * Eventide one per key, so keys are compared one at a time. Why one {@code addElements} per batch
 * is enough: the DirectRunner turns one TestStream element event into one bundle, its
 * GroupByKeyOnly step turns a bundle into one work item per key, and GroupAlsoByWindow hands that
 * work item's elements to one {@code ReduceFnRunner.processElements} call — exactly our "add the
 * batch, then ask the triggers once". Each TestStream event is only started when the pipeline is
 * quiescent, so a step never overtakes the previous one.
 */
final class BeamRunner {
  /** Beam's TestStream clock starts at the minimum instant; our processing time starts at 0. */
  static final long PROCESSING_TIME_ORIGIN = BoundedWindow.TIMESTAMP_MIN_VALUE.getMillis();

  /** A scenario takes well under a second; this only catches runs that never end. */
  private static final Duration TIMEOUT =
      Duration.standardSeconds(Long.getLong("eventide.diff.beamTimeoutSeconds", 10));

  private static final Map<String, Queue<ObservedPane>> SINK = new ConcurrentHashMap<>();

  private BeamRunner() {}

  /**
   * Thrown when the DirectRunner has not finished a scenario in time. Its QuiescenceDriver can spin
   * forever on some timelines (see the report); those scenarios cannot be compared.
   */
  static final class BeamDidNotFinish extends RuntimeException {
    BeamDidNotFinish(String message) {
      super(message);
    }
  }

  private static void cancel(PipelineResult result) {
    try {
      result.cancel();
    } catch (IOException | RuntimeException e) {
      // Best effort: the run is abandoned either way.
    }
  }

  /**
   * Thrown when Beam's SDK refuses a trigger tree by type (a non-"once" trigger where one is due).
   */
  static final class RejectedByBeam extends RuntimeException {
    RejectedByBeam(String message) {
      super(message);
    }
  }

  /** Every pane Beam emits for a single-key scenario, sorted like {@link EngineRunner#run}. */
  static List<ObservedPane> run(Scenario scenario) {
    WindowingStrategy s = scenario.strategy();
    String runId = scenario.id() + "#" + UUID.randomUUID();
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setRunner(DirectRunner.class);
    // Not blocking, so that a run Beam never finishes can be given up on (see BeamDidNotFinish).
    options.setBlockOnRun(false);
    // Enforcement re-encodes every element; our values are immutable boxed ints and strings.
    options.setEnforceImmutability(false);
    options.setEnforceEncodability(false);
    options.setStableUniqueNames(CheckEnabled.OFF);
    Pipeline pipeline = Pipeline.create(options);

    PCollection<KV<String, Integer>> windowed =
        pipeline.apply(testStream(scenario)).apply(window(s));
    // GroupByKey refuses, at construction, a top-level trigger that can finish, and the default
    // trigger in the global window of an unbounded input; Beam's runtime handles both (finishing
    // triggers are what Beam's docs and other SDKs use). Construct the GroupByKey against a safe
    // stand-in trigger, then restore the real strategy: the
    // DirectRunner's GroupByKey override reads the input's strategy only when the pipeline runs.
    var real = windowed.getWindowingStrategy();
    windowed.setWindowingStrategyInternal(
        real.withTrigger(Repeatedly.forever(AfterPane.elementCountAtLeast(1))));
    PCollection<KV<String, Iterable<Integer>>> grouped =
        windowed.apply(GroupByKey.<String, Integer>create());
    windowed.setWindowingStrategyInternal(real);
    grouped.apply(ParDo.of(new Record(runId)));

    SINK.put(runId, new ConcurrentLinkedQueue<>());
    try {
      PipelineResult result = pipeline.run();
      PipelineResult.State state = result.waitUntilFinish(TIMEOUT);
      if (state == null || !state.isTerminal()) {
        cancel(result);
        throw new BeamDidNotFinish(scenario.id() + " did not finish within " + TIMEOUT);
      }
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException(scenario.id() + " ended " + state);
      }
      List<ObservedPane> out = new ArrayList<>(SINK.get(runId));
      out.sort(null);
      return out;
    } finally {
      SINK.remove(runId);
    }
  }

  private static TestStream<KV<String, Integer>> testStream(Scenario scenario) {
    TestStream.Builder<KV<String, Integer>> b =
        TestStream.create(KvCoder.of(StringUtf8Coder.of(), VarIntCoder.of()));
    long processingTime = 0;
    List<Scenario.Step> steps = scenario.steps();
    for (int i = 0; i < steps.size(); i++) {
      Scenario.Step step = steps.get(i);
      if (step instanceof Scenario.Events e) {
        List<TimestampedValue<KV<String, Integer>>> values = new ArrayList<>();
        for (Scenario.Element el : e.elements()) {
          values.add(TimestampedValue.of(KV.of(el.key(), el.value()), new Instant(el.timestamp())));
        }
        b = addAll(b, values);
      } else if (step instanceof Scenario.Watermark w) {
        if (w.time() >= Time.MAX) {
          if (i != steps.size() - 1) {
            throw new IllegalArgumentException("the end of time must be the last step");
          }
          return b.advanceWatermarkToInfinity();
        }
        b = b.advanceWatermarkTo(new Instant(w.time()));
      } else if (step instanceof Scenario.ProcessingTime p && p.time() > processingTime) {
        b = b.advanceProcessingTime(Duration.millis(p.time() - processingTime));
        processingTime = p.time();
      }
    }
    throw new IllegalArgumentException("a scenario must end with the watermark at the end of time");
  }

  @SuppressWarnings("unchecked")
  private static TestStream.Builder<KV<String, Integer>> addAll(
      TestStream.Builder<KV<String, Integer>> b,
      List<TimestampedValue<KV<String, Integer>>> values) {
    return b.addElements(
        values.get(0),
        values.subList(1, values.size()).toArray(new TimestampedValue[values.size() - 1]));
  }

  /** Beam's {@code Window} of {@code s}, every setting given, built through Beam's typed API. */
  static org.apache.beam.sdk.transforms.windowing.Window<KV<String, Integer>> window(
      WindowingStrategy s) {
    var w =
        org.apache.beam.sdk.transforms.windowing.Window.<KV<String, Integer>>into(
                windowFn(s.windowFn()))
            .triggering(trigger(s.trigger()))
            .withAllowedLateness(
                Duration.millis(s.allowedLateness()),
                s.closingBehavior() == ClosingBehavior.FIRE_ALWAYS
                    ? org.apache.beam.sdk.transforms.windowing.Window.ClosingBehavior.FIRE_ALWAYS
                    : org.apache.beam.sdk.transforms.windowing.Window.ClosingBehavior
                        .FIRE_IF_NON_EMPTY)
            .withTimestampCombiner(TimestampCombiner.valueOf(s.timestampCombiner().name()))
            .withOnTimeBehavior(
                s.onTimeBehavior() == OnTimeBehavior.FIRE_ALWAYS
                    ? org.apache.beam.sdk.transforms.windowing.Window.OnTimeBehavior.FIRE_ALWAYS
                    : org.apache.beam.sdk.transforms.windowing.Window.OnTimeBehavior
                        .FIRE_IF_NON_EMPTY);
    return switch (s.mode()) {
      case ACCUMULATING -> w.accumulatingFiredPanes();
      case DISCARDING -> w.discardingFiredPanes();
      case RETRACTING ->
          throw new IllegalArgumentException("Beam never shipped retracting panes: " + s);
    };
  }

  @SuppressWarnings("unchecked")
  private static org.apache.beam.sdk.transforms.windowing.WindowFn<Object, ?> windowFn(
      WindowFn fn) {
    if (fn instanceof WindowFn.Fixed f) {
      return FixedWindows.of(Duration.millis(f.size())).withOffset(Duration.millis(f.offset()));
    }
    if (fn instanceof WindowFn.Sliding f) {
      return SlidingWindows.of(Duration.millis(f.size()))
          .every(Duration.millis(f.period()))
          .withOffset(Duration.millis(f.offset()));
    }
    if (fn instanceof WindowFn.Session f) {
      return Sessions.withGapDuration(Duration.millis(f.gap()));
    }
    return (org.apache.beam.sdk.transforms.windowing.WindowFn<Object, ?>)
        (org.apache.beam.sdk.transforms.windowing.WindowFn<?, ?>) new GlobalWindows();
  }

  /**
   * Beam's counterpart of a trigger tree, built through Beam's typed API, so that Beam's own typing
   * decides what is accepted.
   *
   * @throws RejectedByBeam where Beam's API requires a {@code OnceTrigger} and the subtree is not
   */
  static org.apache.beam.sdk.transforms.windowing.Trigger trigger(Trigger t) {
    if (t instanceof Trigger.Default) {
      return DefaultTrigger.of();
    }
    if (t instanceof Trigger.AfterWatermark a) {
      AfterWatermark.FromEndOfWindow end = AfterWatermark.pastEndOfWindow();
      if (a.early() == null && a.late() == null) {
        return end;
      }
      AfterWatermark.AfterWatermarkEarlyAndLate withEarly =
          a.early() == null ? null : end.withEarlyFirings(once(a.early()));
      if (a.late() == null) {
        return withEarly;
      }
      return withEarly == null
          ? end.withLateFirings(once(a.late()))
          : withEarly.withLateFirings(once(a.late()));
    }
    if (t instanceof Trigger.AfterProcessingTime p) {
      // Without a zero delay, as Beam users write it: Beam tells the two apart by equality only.
      return p.delayMillis() == 0
          ? AfterProcessingTime.pastFirstElementInPane()
          : AfterProcessingTime.pastFirstElementInPane()
              .plusDelayOf(Duration.millis(p.delayMillis()));
    }
    if (t instanceof Trigger.AfterCount c) {
      return AfterPane.elementCountAtLeast(Math.toIntExact(c.count()));
    }
    if (t instanceof Trigger.Repeatedly r) {
      return Repeatedly.forever(trigger(r.trigger()));
    }
    if (t instanceof Trigger.AfterEach e) {
      return AfterEach.inOrder(triggers(e.triggers()));
    }
    // The List overloads take any trigger; the varargs ones only once triggers, and both build
    // the same state machine.
    if (t instanceof Trigger.AfterFirst f) {
      return AfterFirst.of(triggers(f.triggers()));
    }
    if (t instanceof Trigger.AfterAll a) {
      return AfterAll.of(triggers(a.triggers()));
    }
    if (t instanceof Trigger.OrFinally o) {
      return trigger(o.trigger()).orFinally(once(o.until()));
    }
    return Never.ever();
  }

  private static org.apache.beam.sdk.transforms.windowing.Trigger.OnceTrigger once(Trigger t) {
    if (trigger(t) instanceof org.apache.beam.sdk.transforms.windowing.Trigger.OnceTrigger o) {
      return o;
    }
    throw new RejectedByBeam("Beam requires a OnceTrigger here, but " + t + " is not one");
  }

  private static List<org.apache.beam.sdk.transforms.windowing.Trigger> triggers(List<Trigger> ts) {
    return ts.stream().map(BeamRunner::trigger).toList();
  }

  /** Records each grouped output; static state because Beam serializes the DoFn. */
  private static final class Record extends DoFn<KV<String, Iterable<Integer>>, Void> {
    private final String runId;

    Record(String runId) {
      this.runId = runId;
    }

    @ProcessElement
    public void process(ProcessContext c, BoundedWindow window) {
      List<Integer> values = new ArrayList<>();
      c.element().getValue().forEach(values::add);
      long start;
      long end;
      if (window instanceof IntervalWindow iw) {
        start = iw.start().getMillis();
        end = iw.end().getMillis();
      } else {
        start = Window.GLOBAL.start();
        end = Window.GLOBAL.end();
      }
      PaneInfo pane = c.pane();
      SINK.get(runId)
          .add(
              new ObservedPane(
                  c.element().getKey(),
                  start,
                  end,
                  values,
                  c.timestamp().getMillis(),
                  (int) pane.getIndex(),
                  pane.getNonSpeculativeIndex(),
                  Timing.valueOf(pane.getTiming().name()),
                  pane.isFirst(),
                  pane.isLast()));
    }
  }
}
