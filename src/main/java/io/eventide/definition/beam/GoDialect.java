package io.eventide.definition.beam;

import static io.eventide.definition.beam.Dialect.type;
import static io.eventide.definition.beam.Param.required;
import static io.eventide.definition.beam.Param.rest;
import static io.eventide.definition.beam.Param.slice;

import io.eventide.definition.beam.Dialect.Kind;
import io.eventide.definition.beam.Expression.Chain;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.OnTimeBehavior;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * Beam's Go SDK: {@code trigger.AfterEndOfWindow().EarlyFiring(…).LateFiring(…)}, sub-triggers as
 * slices ({@code []trigger.Trigger{…}}), {@code time.Duration} products such as {@code 60 *
 * time.Second} and {@code beam.WindowInto(s, window.NewFixedWindows(…), col, options…)}.
 */
final class GoDialect {
  /** The options of {@code beam.WindowInto}, each applied to the chain's node in turn. */
  private record Option(List<Param> params, Dialect.Modify apply) {}

  private static final Map<String, Option> OPTIONS =
      Map.of(
          "beam.Trigger",
          new Option(
              List.of(required("tr", "a trigger")),
              (n, a, t) -> t.trigger(n, "trigger", a.get("tr"))),
          "beam.AllowedLateness",
          new Option(
              List.of(required("delay", "a time.Duration")),
              (n, a, t) -> t.duration(n, "allowedLateness", a.get("delay"))),
          "beam.PanesAccumulate",
          new Option(
              List.of(),
              (n, a, t) -> t.constant(n, "accumulation", AccumulationMode.ACCUMULATING, a.at())),
          "beam.PanesDiscard",
          new Option(
              List.of(),
              (n, a, t) -> t.constant(n, "accumulation", AccumulationMode.DISCARDING, a.at())));

  private static final Map<String, BigDecimal> NANOS_PER_UNIT =
      Map.of(
          "time.Nanosecond", BigDecimal.ONE,
          "time.Microsecond", BigDecimal.valueOf(1_000L),
          "time.Millisecond", BigDecimal.valueOf(1_000_000L),
          "time.Second", BigDecimal.valueOf(1_000_000_000L),
          "time.Minute", BigDecimal.valueOf(60_000_000_000L),
          "time.Hour", BigDecimal.valueOf(3_600_000_000_000L));

  private static final String DURATION = "a time.Duration";
  private static final List<Param> TRIGGER = List.of(required("trigger", "a trigger"));
  private static final List<Param> TRIGGERS =
      List.of(slice("triggers", "a slice []trigger.Trigger{…}"));

  private GoDialect() {}

  static Dialect create() {
    Dialect go = new Dialect("Go", false, GoDialect::duration);
    go.form(Kind.TRIGGER, "trigger.AfterEndOfWindow", List.of(), (a, t) -> t.node("afterWatermark"))
        .form(
            Kind.TRIGGER,
            "trigger.AfterProcessingTime",
            List.of(),
            (a, t) -> t.node("afterProcessingTime"))
        .form(
            Kind.TRIGGER,
            "trigger.AfterCount",
            List.of(required("count", "a whole number")),
            (a, t) -> t.number(t.node("afterCount"), "count", a.get("count")))
        .form(
            Kind.TRIGGER,
            "trigger.Repeat",
            TRIGGER,
            (a, t) -> t.trigger(t.node("repeatedly"), "trigger", a.get("trigger")))
        .form(
            Kind.TRIGGER,
            "trigger.AfterAny",
            TRIGGERS,
            (a, t) -> t.triggers(t.node("afterFirst"), "triggers", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "trigger.AfterAll",
            TRIGGERS,
            (a, t) -> t.triggers(t.node("afterAll"), "triggers", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "trigger.AfterEach",
            TRIGGERS,
            (a, t) -> t.triggers(t.node("afterEach"), "triggers", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "trigger.OrFinally",
            List.of(required("trigger", "a trigger"), required("finally", "a trigger")),
            (a, t) ->
                t.trigger(
                    t.trigger(t.node("orFinally"), "trigger", a.get("trigger")),
                    "until",
                    a.get("finally")))
        .form(
            Kind.TRIGGER,
            "trigger.Always",
            List.of(),
            (a, t) -> t.node("repeatedly").set("trigger", t.node("afterCount").put("count", 1)))
        .form(Kind.TRIGGER, "trigger.Default", List.of(), (a, t) -> t.node("default"))
        .form(Kind.TRIGGER, "trigger.Never", List.of(), (a, t) -> t.node("never"))
        .method(
            Kind.TRIGGER,
            "EarlyFiring",
            type("afterWatermark"),
            TRIGGER,
            (n, a, t) -> firing(n, "early", a.get("trigger"), t))
        .method(
            Kind.TRIGGER,
            "LateFiring",
            type("afterWatermark"),
            TRIGGER,
            (n, a, t) -> firing(n, "late", a.get("trigger"), t))
        .method(
            Kind.TRIGGER,
            "PlusDelay",
            type("afterProcessingTime"),
            List.of(required("delay", DURATION)),
            (n, a, t) -> t.addDuration(n, "delay", a.get("delay")))
        .form(
            Kind.WINDOW,
            "window.NewFixedWindows",
            List.of(required("interval", DURATION)),
            (a, t) -> t.duration(t.node("fixed"), "size", a.get("interval")))
        .form(
            Kind.WINDOW,
            "window.NewSlidingWindows",
            List.of(required("period", DURATION), required("duration", DURATION)),
            (a, t) ->
                t.duration(
                    t.duration(t.node("sliding"), "size", a.get("duration")),
                    "period",
                    a.get("period")))
        .form(
            Kind.WINDOW,
            "window.NewSessions",
            List.of(required("gap", DURATION)),
            (a, t) -> t.duration(t.node("session"), "gap", a.get("gap")))
        .form(Kind.WINDOW, "window.NewGlobalWindows", List.of(), (a, t) -> t.node("global"))
        .form(
            Kind.WINDOWING,
            "beam.WindowInto",
            List.of(
                required("s", "the scope"),
                required("ws", "a window"),
                required("col", "the PCollection"),
                rest("opts", "options")),
            GoDialect::windowInto);
    return go;
  }

  /** The scope and the collection are names to pass over; the options set the rest. */
  private static ObjectNode windowInto(BoundArguments a, Translator t) {
    name(a.get("s"), "the scope");
    ObjectNode node = t.window(t.settings(), "window", a.get("ws"));
    name(a.get("col"), "the PCollection");
    for (Expression option : a.list("opts")) {
      node = option(node, option, t);
    }
    // The SDK gives every windowing strategy it writes this on-time behavior (FIRE_IF_NONEMPTY).
    return t.constant(node, "onTimeBehavior", OnTimeBehavior.FIRE_IF_NON_EMPTY, a.at());
  }

  private static void name(Expression e, String what) {
    if (!(e instanceof Chain c) || c.arguments() != null) {
      throw new ExpressionException(
          e.at(), "expected " + what + ", a name such as s, found " + e.describe());
    }
  }

  private static ObjectNode option(ObjectNode node, Expression e, Translator t) {
    if (!(e instanceof Chain c) || c.arguments() == null || !c.methods().isEmpty()) {
      throw new ExpressionException(
          e.at(), "expected an option such as beam.Trigger(…), found " + e.describe());
    }
    Option option = OPTIONS.get(c.name());
    if (option == null) {
      throw new ExpressionException(
          c.at(),
          "unknown option '" + c.name() + "'",
          "known in Go: " + String.join(", ", OPTIONS.keySet().stream().sorted().toList()));
    }
    return option.apply().apply(node, t.bind(c.name(), option.params(), c), t);
  }

  /**
   * Go's early and late firings repeat by themselves, and its docs still wrap them in {@code
   * trigger.Repeat}; repeating a repeating trigger changes nothing, so the wrapper is dropped.
   */
  private static ObjectNode firing(ObjectNode node, String field, Expression e, Translator t) {
    t.trigger(node, field, e);
    ObjectNode firing = (ObjectNode) node.get(field);
    if (firing.get("type").stringValue().equals("repeatedly")) {
      node.set(field, firing.get("trigger"));
    }
    return node;
  }

  /** A product of numbers and {@code time} units, or {@code time.Duration(n)} nanoseconds. */
  private static Duration duration(Expression e, Translator t) {
    BigDecimal nanos = BigDecimal.ONE;
    boolean typed = false;
    for (Expression factor : factors(e)) {
      BigDecimal unit = unit(factor, t);
      typed |= unit != null;
      nanos = nanos.multiply(unit != null ? unit : t.numeric(factor));
    }
    if (!typed) {
      throw new ExpressionException(
          e.at(), "expected a time.Duration such as 60 * time.Second, found " + e.describe());
    }
    return t.nanos(nanos, e.at());
  }

  private static List<Expression> factors(Expression e) {
    if (!(e instanceof Expression.Product p)) {
      return List.of(e);
    }
    List<Expression> factors = new ArrayList<>();
    p.factors().forEach(f -> factors.addAll(factors(f)));
    return factors;
  }

  /** The nanoseconds of a {@code time} unit or conversion, or null for a plain number. */
  private static BigDecimal unit(Expression e, Translator t) {
    if (!(e instanceof Chain c) || !c.methods().isEmpty()) {
      return null;
    }
    if (c.arguments() == null && c.name().startsWith("time.")) {
      BigDecimal nanos = NANOS_PER_UNIT.get(c.name());
      if (nanos == null) {
        throw new ExpressionException(
            c.at(),
            "unknown unit '" + c.name() + "'",
            "known: " + String.join(", ", NANOS_PER_UNIT.keySet().stream().sorted().toList()));
      }
      return nanos;
    }
    if (c.name().equals("time.Duration")) {
      return t.numeric(t.bind(c.name(), List.of(required("n", "nanoseconds")), c).get("n"));
    }
    return null;
  }
}
