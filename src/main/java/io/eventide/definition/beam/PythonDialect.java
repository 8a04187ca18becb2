package io.eventide.definition.beam;

import static io.eventide.definition.beam.Param.optional;
import static io.eventide.definition.beam.Param.required;
import static io.eventide.definition.beam.Param.rest;

import io.eventide.definition.beam.Dialect.Kind;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * Beam's Python SDK: {@code AfterWatermark(early=AfterProcessingTime(60), late=AfterCount(1))},
 * durations in seconds (integers, decimals or products such as {@code 10 * 60}), names optionally
 * prefixed with their module ({@code trigger.AfterCount}, {@code window.FixedWindows}).
 */
final class PythonDialect {
  private static final String SECONDS = "seconds";
  private static final List<Param> TRIGGERS = List.of(rest("triggers", "triggers"));

  private PythonDialect() {}

  static Dialect create() {
    Dialect python =
        new Dialect("Python", true, (e, t) -> t.seconds(t.numeric(e), e.at()))
            .optionalPrefix(Kind.TRIGGER, "trigger.")
            .optionalPrefix(Kind.WINDOW, "window.");
    python
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

  private static ObjectNode offset(ObjectNode node, BoundArguments a, Translator t) {
    return a.get("offset") == null ? node : t.duration(node, "offset", a.get("offset"));
  }
}
