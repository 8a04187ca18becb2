package io.eventide.definition.beam;

import static io.eventide.definition.beam.Dialect.any;
import static io.eventide.definition.beam.Dialect.calendar;
import static io.eventide.definition.beam.Dialect.type;
import static io.eventide.definition.beam.Param.optional;
import static io.eventide.definition.beam.Param.required;
import static io.eventide.definition.beam.Param.rest;

import io.eventide.definition.beam.Dialect.Kind;
import io.eventide.definition.beam.Expression.Chain;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Beam's Java SDK: {@code AfterWatermark.pastEndOfWindow().withEarlyFirings(…)}, Joda durations
 * ({@code Duration.standardMinutes(1)}), {@code CalendarWindows} with Joda time zones and the whole
 * {@code Window.<T>into(…).triggering(…)…} chain.
 */
final class JavaDialect {
  /** Joda's package, which a duration may be written with. */
  private static final String JODA = "org.joda.time.";

  private static final Map<String, Duration> DURATION_UNITS =
      Map.of(
          "Duration.millis", Duration.ofMillis(1),
          "Duration.standardSeconds", Duration.ofSeconds(1),
          "Duration.standardMinutes", Duration.ofMinutes(1),
          "Duration.standardHours", Duration.ofHours(1),
          "Duration.standardDays", Duration.ofDays(1));

  private static final List<Param> AMOUNT = List.of(required("amount", "a whole number"));
  private static final List<Param> TRIGGER = List.of(required("trigger", "a trigger"));
  private static final List<Param> TRIGGERS = List.of(rest("triggers", "triggers"));
  private static final List<Param> DURATION = List.of(required("duration", "a duration"));
  private static final List<Param> COUNT = List.of(required("count", "a whole number"));

  private static final Map<String, ClosingBehavior> CLOSING_BEHAVIORS =
      constants(BeamJava.CLOSING_BEHAVIOR, ClosingBehavior.class);
  private static final Map<String, OnTimeBehavior> ON_TIME_BEHAVIORS =
      constants(BeamJava.ON_TIME_BEHAVIOR, OnTimeBehavior.class);
  private static final Map<String, TimestampCombiner> TIMESTAMP_COMBINERS =
      constants(BeamJava.TIMESTAMP_COMBINER, TimestampCombiner.class);

  /** The calls that make the {@code List<Trigger>} of a composite trigger. */
  private static final List<String> LISTS = List.of("Arrays.asList", "List.of");

  /** Beam's calendar windows count from here unless told otherwise. */
  private static final LocalDate DEFAULT_START = LocalDate.of(1970, 1, 1);

  private JavaDialect() {}

  static Dialect create() {
    Dialect java = new Dialect("Java", false, JavaDialect::duration).allowTypeArguments();
    triggers(java);
    windows(java);
    calendarWindows(java);
    windowing(java);
    return java;
  }

  private static void triggers(Dialect java) {
    java.form(
            Kind.TRIGGER,
            "AfterWatermark.pastEndOfWindow",
            List.of(),
            (a, t) -> t.node("afterWatermark"))
        .form(
            Kind.TRIGGER,
            "AfterProcessingTime.pastFirstElementInPane",
            List.of(),
            (a, t) -> t.node("afterProcessingTime"))
        .form(
            Kind.TRIGGER,
            "AfterPane.elementCountAtLeast",
            COUNT,
            (a, t) -> t.number(t.node("afterCount"), "count", a.get("count")))
        .form(
            Kind.TRIGGER,
            "Repeatedly.forever",
            TRIGGER,
            (a, t) -> t.trigger(t.node("repeatedly"), "trigger", a.get("trigger")))
        .form(
            Kind.TRIGGER,
            "AfterEach.inOrder",
            TRIGGERS,
            (a, t) -> t.triggers(t.node("afterEach"), "triggers", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "AfterFirst.of",
            TRIGGERS,
            (a, t) -> overloaded(t, "afterFirst", "AfterFirst.of", a.list("triggers")))
        .form(
            Kind.TRIGGER,
            "AfterAll.of",
            TRIGGERS,
            (a, t) -> overloaded(t, "afterAll", "AfterAll.of", a.list("triggers")))
        .form(Kind.TRIGGER, "Never.ever", List.of(), (a, t) -> t.node("never"))
        .form(Kind.TRIGGER, "DefaultTrigger.of", List.of(), (a, t) -> t.node("default"))
        .method(
            Kind.TRIGGER,
            "withEarlyFirings",
            type("afterWatermark"),
            TRIGGER,
            (n, a, t) -> t.trigger(n, "early", a.get("trigger")))
        .method(
            Kind.TRIGGER,
            "withLateFirings",
            type("afterWatermark"),
            TRIGGER,
            (n, a, t) -> t.trigger(n, "late", a.get("trigger")))
        .method(
            Kind.TRIGGER,
            "plusDelayOf",
            type("afterProcessingTime"),
            DURATION,
            (n, a, t) -> t.addDuration(n, "delay", a.get("duration")))
        .method(
            Kind.TRIGGER,
            "orFinally",
            any(),
            TRIGGER,
            (n, a, t) ->
                t.trigger(t.node("orFinally").set("trigger", n), "until", a.get("trigger")));
  }

  /**
   * {@code AfterFirst.of} and {@code AfterAll.of} have two overloads: varargs of {@code
   * OnceTrigger}, and a {@code List<Trigger>} that takes any trigger.
   */
  private static ObjectNode overloaded(
      Translator t, String type, String callee, List<Expression> arguments) {
    if (arguments.size() == 1
        && arguments.get(0) instanceof Chain list
        && LISTS.contains(list.name())
        && list.arguments() != null
        && list.methods().isEmpty()) {
      return t.triggers(
          t.node(type), "triggers", t.bind(list.name(), TRIGGERS, list).list("triggers"));
    }
    ObjectNode node = t.triggers(t.node(type), "triggers", arguments);
    t.requireSingleFire(
        node.get("triggers"),
        arguments,
        callee
            + "(OnceTrigger...) takes single-fire triggers only; "
            + callee
            + "(Arrays.asList(…)) takes any trigger");
    return node;
  }

  private static void windows(Dialect java) {
    java.form(
            Kind.WINDOW,
            "FixedWindows.of",
            DURATION,
            (a, t) -> t.duration(t.node("fixed"), "size", a.get("duration")))
        .form(
            Kind.WINDOW,
            "SlidingWindows.of",
            DURATION,
            (a, t) -> t.duration(t.node("sliding"), "size", a.get("duration")))
        .form(
            Kind.WINDOW,
            "Sessions.withGapDuration",
            DURATION,
            (a, t) -> t.duration(t.node("session"), "gap", a.get("duration")))
        .form(Kind.WINDOW, "new GlobalWindows", List.of(), (a, t) -> t.node("global"))
        .method(
            Kind.WINDOW,
            "every",
            type("sliding"),
            DURATION,
            (n, a, t) -> t.duration(n, "period", a.get("duration")))
        .method(
            Kind.WINDOW,
            "withOffset",
            type("fixed", "sliding"),
            DURATION,
            (n, a, t) -> t.duration(n, "offset", a.get("duration")));
  }

  private static void calendarWindows(Dialect java) {
    for (String unit : List.of("days", "months", "years")) {
      java.form(
          Kind.WINDOW,
          "CalendarWindows." + unit,
          List.of(required("number", "a whole number")),
          (a, t) -> t.number(calendarNode(t, unit), "multiple", a.get("number")));
    }
    java.form(
            Kind.WINDOW,
            "CalendarWindows.weeks",
            List.of(
                required("number", "a whole number"),
                required("startDayOfWeek", "a day of the week (DateTimeConstants.MONDAY)")),
            (a, t) ->
                t.text(
                    t.number(calendarNode(t, "weeks"), "multiple", a.get("number")),
                    "weekStart",
                    dayOfWeek(a.get("startDayOfWeek"), t).name(),
                    a.get("startDayOfWeek").at()))
        .method(
            Kind.WINDOW,
            "withTimeZone",
            type("calendar"),
            List.of(required("timeZone", "a time zone (DateTimeZone.forID(\"Europe/Berlin\"))")),
            (n, a, t) ->
                t.text(n, "timeZone", timeZone(a.get("timeZone"), t), a.get("timeZone").at()))
        .method(
            Kind.WINDOW,
            "withStartingDay",
            calendar("days", "weeks"),
            List.of(
                required("year", "a year"),
                required("month", "a month"),
                required("day", "a day of the month")),
            (n, a, t) -> startDate(n, a, t, a.get("year"), a.get("month"), a.get("day")))
        .method(
            Kind.WINDOW,
            "withStartingMonth",
            calendar("months"),
            List.of(required("year", "a year"), required("month", "a month")),
            (n, a, t) -> startDate(n, a, t, a.get("year"), a.get("month"), null))
        .method(
            Kind.WINDOW,
            "withStartingYear",
            calendar("years"),
            List.of(required("year", "a year")),
            (n, a, t) -> startDate(n, a, t, a.get("year"), null, null))
        .method(
            Kind.WINDOW,
            "beginningOnDay",
            calendar("months"),
            List.of(required("day", "a day of the month")),
            (n, a, t) -> startDate(n, a, t, null, null, a.get("day")))
        .method(
            Kind.WINDOW,
            "beginningOnDay",
            calendar("years"),
            List.of(required("month", "a month"), required("day", "a day of the month")),
            (n, a, t) -> startDate(n, a, t, null, a.get("month"), a.get("day")));
  }

  private static void windowing(Dialect java) {
    java.form(
            Kind.WINDOWING,
            "Window.into",
            List.of(required("windowFn", "a window")),
            (a, t) -> t.window(t.settings(), "window", a.get("windowFn")),
            JavaDialect::requireWhatBeamRequires)
        .method(
            Kind.WINDOWING,
            "triggering",
            any(),
            TRIGGER,
            (n, a, t) -> t.trigger(n, "trigger", a.get("trigger")))
        .method(
            Kind.WINDOWING,
            "withAllowedLateness",
            any(),
            List.of(
                required("allowedLateness", "a duration"),
                optional("closingBehavior", BeamJava.CLOSING_BEHAVIOR + ".…")),
            (n, a, t) -> {
              t.duration(n, "allowedLateness", a.get("allowedLateness"));
              Expression closing = a.get("closingBehavior");
              return closing == null
                  ? n
                  : t.constant(n, "closingBehavior", closing, CLOSING_BEHAVIORS, Kind.WINDOWING);
            });
    for (AccumulationMode mode : AccumulationMode.values()) {
      java.method(
          Kind.WINDOWING,
          BeamJava.panes(mode),
          any(),
          List.of(),
          (n, a, t) -> t.constant(n, "accumulation", mode, a.at()));
    }
    constantSetter(java, "withTimestampCombiner", "timestampCombiner", TIMESTAMP_COMBINERS);
    constantSetter(java, "withOnTimeBehavior", "onTimeBehavior", ON_TIME_BEHAVIORS);
  }

  /** A method of the chain that sets {@code field} to one of {@code constants}. */
  private static void constantSetter(
      Dialect java, String method, String field, Map<String, ? extends Enum<?>> constants) {
    String any = constants.keySet().iterator().next();
    java.method(
        Kind.WINDOWING,
        method,
        any(),
        List.of(required(field, any.substring(0, any.lastIndexOf('.')) + ".…")),
        (n, a, t) -> t.constant(n, field, a.get(field), constants, Kind.WINDOWING));
  }

  /** The constants of an enum of Beam's, by their Java names; Eventide's enums share them. */
  private static <E extends Enum<E>> Map<String, E> constants(String type, Class<E> values) {
    Map<String, E> constants = new HashMap<>();
    for (E value : values.getEnumConstants()) {
      constants.put(BeamJava.constant(type, value), value);
    }
    return constants;
  }

  /**
   * What Beam's Java SDK refuses when the transform is applied: a trigger other than the default
   * without an allowed lateness, unless the windows are global; and no accumulation mode when a
   * window can fire more than one pane (such a trigger, or late data allowed into windows other
   * than global ones).
   */
  private static void requireWhatBeamRequires(ObjectNode node, Chain chain) {
    boolean global = node.get("window").get("type").stringValue().equals("global");
    JsonNode trigger = node.get("trigger");
    boolean triggered = trigger != null && !trigger.get("type").stringValue().equals("default");
    JsonNode lateness = node.get("allowedLateness");
    if (triggered && !global && lateness == null) {
      throw new ExpressionException(
          lastCall(chain, "triggering"),
          "Beam's Java SDK requires .withAllowedLateness(…) with .triggering(…) unless the"
              + " windows are GlobalWindows; .withAllowedLateness(Duration.ZERO) keeps no late"
              + " data");
    }
    boolean late =
        !global && lateness != null && Duration.parse(lateness.stringValue()).toMillis() > 0;
    if (node.get("accumulation") == null && (triggered || late)) {
      throw new ExpressionException(
          lastCall(chain, triggered ? "triggering" : "withAllowedLateness"),
          "Beam's Java SDK requires .discardingFiredPanes() or .accumulatingFiredPanes() with "
              + (triggered ? "a trigger" : "an allowed lateness above zero")
              + ", as more than one pane may fire");
    }
  }

  /** Where the last call of {@code method} in the chain is: the one whose setting stands. */
  private static int lastCall(Chain chain, String method) {
    int at = chain.at();
    for (Expression.MethodCall call : chain.methods()) {
      if (call.name().equals(method)) {
        at = call.at();
      }
    }
    return at;
  }

  private static ObjectNode calendarNode(Translator t, String unit) {
    return t.node("calendar").put("unit", unit);
  }

  /**
   * Replaces the given parts of the window's start date, keeping the others (1970-01-01 until set).
   */
  private static ObjectNode startDate(
      ObjectNode node,
      BoundArguments a,
      Translator t,
      Expression year,
      Expression month,
      Expression day) {
    JsonNode current = node.get("startDate");
    LocalDate start = current == null ? DEFAULT_START : LocalDate.parse(current.stringValue());
    try {
      start =
          LocalDate.of(
              year == null ? start.getYear() : t.integer(year),
              month == null ? start.getMonthValue() : t.integer(month),
              day == null ? start.getDayOfMonth() : t.integer(day));
    } catch (DateTimeException e) {
      throw new ExpressionException(a.at(), "no such start date: " + e.getMessage());
    }
    return t.text(node, "startDate", start.toString(), a.at());
  }

  /** {@code DateTimeConstants.MONDAY} or Joda's number of the day, 1 for Monday. */
  private static DayOfWeek dayOfWeek(Expression e, Translator t) {
    if (e instanceof Chain c
        && c.arguments() == null
        && c.name().startsWith("DateTimeConstants.")) {
      String day = c.name().substring("DateTimeConstants.".length());
      for (DayOfWeek d : DayOfWeek.values()) {
        if (d.name().equals(day)) {
          return d;
        }
      }
    }
    if (e instanceof Expression.Number) {
      int day = t.integer(e);
      if (day >= 1 && day <= 7) {
        return DayOfWeek.of(day);
      }
    }
    throw new ExpressionException(
        e.at(), "expected a day of the week such as DateTimeConstants.MONDAY or 1..7");
  }

  /** {@code DateTimeZone.forID("Europe/Berlin")} or {@code DateTimeZone.UTC}. */
  private static String timeZone(Expression e, Translator t) {
    if (e instanceof Chain c && c.methods().isEmpty()) {
      if (c.name().equals("DateTimeZone.UTC") && c.arguments() == null) {
        return "UTC";
      }
      if (c.name().equals("DateTimeZone.forID") && c.arguments() != null) {
        return t.string(t.bind(c.name(), List.of(required("id", "a time zone id")), c).get("id"));
      }
    }
    throw new ExpressionException(
        e.at(), "expected DateTimeZone.forID(\"Europe/Berlin\") or DateTimeZone.UTC");
  }

  private static Duration duration(Expression e, Translator t) {
    if (e instanceof Chain c) {
      String name = c.name().startsWith(JODA) ? c.name().substring(JODA.length()) : c.name();
      if (c.arguments() == null && name.equals(BeamJava.ZERO)) {
        return Duration.ZERO;
      }
      Duration unit =
          c.arguments() != null && c.methods().isEmpty() ? DURATION_UNITS.get(name) : null;
      if (unit != null) {
        Expression amount = t.bind(c.name(), AMOUNT, c).get("amount");
        BigDecimal n = t.numeric(amount);
        if (n.scale() > 0) {
          throw new ExpressionException(amount.at(), "expected a whole number");
        }
        try {
          return unit.multipliedBy(n.longValueExact());
        } catch (ArithmeticException ex) {
          throw new ExpressionException(amount.at(), "is too long a duration");
        }
      }
    }
    throw new ExpressionException(
        e.at(),
        "expected a duration ("
            + BeamJava.ZERO
            + ", "
            + String.join(", ", DURATION_UNITS.keySet().stream().sorted().toList())
            + ", each optionally prefixed "
            + JODA
            + "), found "
            + e.describe());
  }
}
