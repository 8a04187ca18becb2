package io.eventide.definition.beam;

import static io.eventide.definition.beam.Param.optional;
import static io.eventide.definition.beam.Param.required;
import static io.eventide.definition.beam.Param.rest;

import io.eventide.definition.beam.Dialect.Kind;
import io.eventide.definition.beam.Expression.Chain;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.TimestampCombiner;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * Beam's Python SDK: {@code AfterWatermark(early=AfterProcessingTime(60), late=AfterCount(1))},
 * durations in seconds (integers, decimals or products such as {@code 10 * 60}) or as {@code
 * Duration(seconds=…)}, names optionally prefixed with their module ({@code trigger.AfterCount},
 * {@code window.FixedWindows}, {@code beam.WindowInto}).
 */
final class PythonDialect {
  private static final String SECONDS = "seconds";
  private static final List<Param> TRIGGERS = List.of(rest("triggers", "triggers"));

  /** {@code apache_beam.utils.timestamp.Duration}, which any duration of the SDK may be. */
  private static final List<Param> DURATION =
      List.of(optional("seconds", "seconds="), optional("micros", "micros="));

  /** In the trigger module, as the names of triggers. */
  private static final Map<String, AccumulationMode> ACCUMULATION_MODES =
      Map.of(
          "AccumulationMode.DISCARDING", AccumulationMode.DISCARDING,
          "AccumulationMode.ACCUMULATING", AccumulationMode.ACCUMULATING);

  /** In the window module, as the names of windows. */
  private static final Map<String, TimestampCombiner> TIMESTAMP_COMBINERS =
      Map.of(
          "TimestampCombiner.OUTPUT_AT_EOW", TimestampCombiner.END_OF_WINDOW,
          "TimestampCombiner.OUTPUT_AT_EARLIEST", TimestampCombiner.EARLIEST,
          "TimestampCombiner.OUTPUT_AT_LATEST", TimestampCombiner.LATEST);

  private PythonDialect() {}

  static Dialect create() {
    Dialect python =
        new Dialect("Python", true, PythonDialect::duration)
            .optionalPrefix(Kind.TRIGGER, "trigger.")
            .optionalPrefix(Kind.WINDOW, "window.", "beam.window.")
            .optionalPrefix(Kind.WINDOWING, "beam.");
    python
        .form(
            Kind.WINDOWING,
            "WindowInto",
            List.of(
                required("windowfn", "a window"),
                optional("trigger", "trigger= a trigger"),
                optional("accumulation_mode", "accumulation_mode= AccumulationMode.…"),
                optional("timestamp_combiner", "timestamp_combiner= TimestampCombiner.…"),
                optional("allowed_lateness", "allowed_lateness= " + SECONDS)),
            PythonDialect::windowInto)
        .form(
            Kind.TRIGGER,
            "AfterWatermark",
            List.of(optional("early", "early= a trigger"), optional("late", "late= a trigger")),
            (a, t) -> {
              ObjectNode node = t.node("afterWatermark");
              if (a.get("early") != null) {
                t.trigger(node, "early", a.get("early"));
              }
              return a.get("late") == null ? node : t.trigger(node, "late", a.get("late"));
            })
        .form(
            Kind.TRIGGER,
            "AfterProcessingTime",
            List.of(optional("delay", "delay= " + SECONDS)),
            (a, t) -> {
              ObjectNode node = t.node("afterProcessingTime");
              return a.get("delay") == null ? node : t.duration(node, "delay", a.get("delay"));
            })
        .form(
            Kind.TRIGGER,
            "AfterCount",
            List.of(required("count", "a whole number")),
            (a, t) -> t.number(t.node("afterCount"), "count", a.get("count")))
        .form(
            Kind.TRIGGER,
            "Repeatedly",
            List.of(required("underlying", "a trigger")),
            (a, t) -> t.trigger(t.node("repeatedly"), "trigger", a.get("underlying")))
        .form(
            Kind.TRIGGER,
            "AfterAny",
            TRIGGERS,
            (a, t) -> t.triggers(t.node("afterFirst"), "triggers", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "AfterAll",
            TRIGGERS,
            (a, t) -> t.triggers(t.node("afterAll"), "triggers", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "AfterEach",
            TRIGGERS,
            (a, t) -> t.triggers(t.node("afterEach"), "triggers", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "OrFinally",
            List.of(required("trigger", "a trigger"), required("until", "a trigger")),
            (a, t) ->
                t.trigger(
                    t.trigger(t.node("orFinally"), "trigger", a.get("trigger")),
                    "until",
                    a.get("until")))
        .form(
            Kind.TRIGGER,
            "Always",
            List.of(),
            (a, t) -> t.node("repeatedly").set("trigger", t.node("afterCount").put("count", 1)))
        .form(Kind.TRIGGER, "DefaultTrigger", List.of(), (a, t) -> t.node("default"))
        .form(
            Kind.WINDOW,
            "FixedWindows",
            List.of(required("size", SECONDS), optional("offset", "offset= " + SECONDS)),
            (a, t) -> offset(t.duration(t.node("fixed"), "size", a.get("size")), a, t))
        .form(
            Kind.WINDOW,
            "SlidingWindows",
            List.of(
                required("size", SECONDS),
                required("period", SECONDS),
                optional("offset", "offset= " + SECONDS)),
            (a, t) ->
                offset(
                    t.duration(
                        t.duration(t.node("sliding"), "size", a.get("size")),
                        "period",
                        a.get("period")),
                    a,
                    t))
        .form(
            Kind.WINDOW,
            "Sessions",
            List.of(required("gap_size", SECONDS)),
            (a, t) -> t.duration(t.node("session"), "gap", a.get("gap_size")))
        .form(Kind.WINDOW, "GlobalWindows", List.of(), (a, t) -> t.node("global"));
    return python;
  }

  /**
   * {@code WindowInto}, refusing what its {@code Windowing} refuses: a trigger other than the
   * default without an accumulation mode.
   */
  private static ObjectNode windowInto(BoundArguments a, Translator t) {
    ObjectNode node = t.window(t.settings(), "window", a.get("windowfn"));
    Expression trigger = a.get("trigger");
    if (trigger != null) {
      t.trigger(node, "trigger", trigger);
    }
    Expression mode = a.get("accumulation_mode");
    if (mode != null) {
      t.constant(node, "accumulation", mode, ACCUMULATION_MODES, Kind.TRIGGER);
    } else if (trigger != null
        && !node.get("trigger").get("type").stringValue().equals("default")) {
      throw new ExpressionException(
          trigger.at(),
          "Beam's Python SDK requires accumulation_mode= with a trigger other than"
              + " DefaultTrigger()");
    }
    Expression combiner = a.get("timestamp_combiner");
    if (combiner != null) {
      t.constant(node, "timestampCombiner", combiner, TIMESTAMP_COMBINERS, Kind.WINDOW);
    }
    Expression lateness = a.get("allowed_lateness");
    if (lateness != null) {
      t.duration(node, "allowedLateness", lateness);
    }
    // The SDK gives every windowing strategy it writes this closing behavior (EMIT_ALWAYS).
    return t.constant(node, "closingBehavior", ClosingBehavior.FIRE_ALWAYS, a.at());
  }

  /** Seconds, or {@code Duration(seconds=…, micros=…)}. */
  private static Duration duration(Expression e, Translator t) {
    if (e instanceof Chain c
        && c.name().equals("Duration")
        && c.arguments() != null
        && c.methods().isEmpty()) {
      BoundArguments parts = t.bind(c.name(), DURATION, c);
      BigDecimal seconds = BigDecimal.ZERO;
      if (parts.get("seconds") != null) {
        seconds = t.numeric(parts.get("seconds"));
      }
      if (parts.get("micros") != null) {
        seconds = seconds.add(t.numeric(parts.get("micros")).movePointLeft(6));
      }
      return t.seconds(seconds, e.at());
    }
    return t.seconds(t.numeric(e), e.at());
  }

  private static ObjectNode offset(ObjectNode node, BoundArguments a, Translator t) {
    return a.get("offset") == null ? node : t.duration(node, "offset", a.get("offset"));
  }
}
