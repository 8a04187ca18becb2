package io.eventide.beam;

import io.eventide.engine.Time;
import io.eventide.engine.Trigger;
import io.eventide.engine.WindowFn;
import io.eventide.engine.WindowingStrategy;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Writes a scenario as a {@code /simulate} request, and panes as JSON, so that a failure can be
 * replayed by hand. Hand-written because the request format is small and fixed, and this keeps the
 * test independent of which Jackson generation is on the classpath.
 */
final class ScenarioJson {
  private ScenarioJson() {}

  /** The {@code /simulate} request body for the scenario. */
  static String simulateRequest(Scenario s) {
    String steps =
        s.steps().stream().map(ScenarioJson::step).collect(Collectors.joining(",\n    "));
    return "{\"pipeline\": "
        + pipeline(s.strategy())
        + ",\n  \"processingTimeStart\": 0,\n  \"steps\": [\n    "
        + steps
        + "\n  ]}";
  }

  static String pipeline(WindowingStrategy s) {
    return "{\"window\": "
        + window(s.windowFn())
        + ", \"trigger\": "
        + trigger(s.trigger())
        + ", \"accumulation\": \""
        + lower(s.mode())
        + "\", \"allowedLateness\": \""
        + Duration.ofMillis(s.allowedLateness())
        + "\", \"timestampCombiner\": \""
        + lower(s.timestampCombiner())
        + "\", \"closingBehavior\": \""
        + lower(s.closingBehavior())
        + "\", \"onTimeBehavior\": \""
        + lower(s.onTimeBehavior())
        + "\", \"aggregate\": {\"type\": \"collect\"}}";
  }

  static String window(WindowFn fn) {
    if (fn instanceof WindowFn.Fixed f) {
      return "{\"type\": \"fixed\", \"size\": \"%s\", \"offset\": \"%s\"}"
          .formatted(Duration.ofMillis(f.size()), Duration.ofMillis(f.offset()));
    }
    if (fn instanceof WindowFn.Sliding f) {
      return "{\"type\": \"sliding\", \"size\": \"%s\", \"period\": \"%s\", \"offset\": \"%s\"}"
          .formatted(
              Duration.ofMillis(f.size()),
              Duration.ofMillis(f.period()),
              Duration.ofMillis(f.offset()));
    }
    if (fn instanceof WindowFn.Session f) {
      return "{\"type\": \"session\", \"gap\": \"%s\"}".formatted(Duration.ofMillis(f.gap()));
    }
    return "{\"type\": \"global\"}";
  }

  static String trigger(Trigger t) {
    if (t instanceof Trigger.Default) {
      return "{\"type\": \"default\"}";
    }
    if (t instanceof Trigger.AfterWatermark a) {
      StringBuilder b = new StringBuilder("{\"type\": \"afterWatermark\"");
      if (a.early() != null) {
        b.append(", \"early\": ").append(trigger(a.early()));
      }
      if (a.late() != null) {
        b.append(", \"late\": ").append(trigger(a.late()));
      }
      return b.append('}').toString();
    }
    if (t instanceof Trigger.AfterProcessingTime p) {
      return "{\"type\": \"afterProcessingTime\", \"delay\": \"%s\"}"
          .formatted(Duration.ofMillis(p.delayMillis()));
    }
    if (t instanceof Trigger.AfterCount c) {
      return "{\"type\": \"afterCount\", \"count\": " + c.count() + "}";
    }
    if (t instanceof Trigger.Repeatedly r) {
      return "{\"type\": \"repeatedly\", \"trigger\": " + trigger(r.trigger()) + "}";
    }
    if (t instanceof Trigger.AfterEach e) {
      return list("afterEach", e.triggers());
    }
    if (t instanceof Trigger.AfterFirst f) {
      return list("afterFirst", f.triggers());
    }
    if (t instanceof Trigger.AfterAll a) {
      return list("afterAll", a.triggers());
    }
    if (t instanceof Trigger.OrFinally o) {
      return "{\"type\": \"orFinally\", \"trigger\": %s, \"until\": %s}"
          .formatted(trigger(o.trigger()), trigger(o.until()));
    }
    return "{\"type\": \"never\"}";
  }

  private static String list(String type, List<Trigger> ts) {
    return "{\"type\": \""
        + type
        + "\", \"triggers\": ["
        + ts.stream().map(ScenarioJson::trigger).collect(Collectors.joining(", "))
        + "]}";
  }

  private static String step(Scenario.Step step) {
    if (step instanceof Scenario.Events e) {
      return "{\"events\": ["
          + e.elements().stream()
              .map(
                  el ->
                      "{\"key\": \"%s\", \"timestamp\": %d, \"value\": %d}"
                          .formatted(el.key(), el.timestamp(), el.value()))
              .collect(Collectors.joining(", "))
          + "]}";
    }
    if (step instanceof Scenario.Watermark w) {
      // The end of time is posted as "+inf", the drain that flushes every window.
      return "{\"watermark\": " + (w.time() >= Time.MAX ? "\"+inf\"" : w.time()) + "}";
    }
    return "{\"processingTime\": " + ((Scenario.ProcessingTime) step).time() + "}";
  }

  /** Panes as a JSON array, one per line. */
  static String panes(List<ObservedPane> panes) {
    return panes.stream()
        .map(
            p ->
                ("{\"key\": \"%s\", \"window\": [%s, %s], \"values\": %s, \"timestamp\": %s,"
                        + " \"index\": %d, \"nonSpeculativeIndex\": %d, \"timing\": \"%s\","
                        + " \"first\": %s, \"last\": %s}")
                    .formatted(
                        p.key(),
                        time(p.windowStart()),
                        time(p.windowEnd()),
                        p.values(),
                        time(p.timestamp()),
                        p.index(),
                        p.nonSpeculativeIndex(),
                        p.timing(),
                        p.first(),
                        p.last()))
        .collect(Collectors.joining(",\n  ", "[\n  ", "\n]"));
  }

  /** A time as a number, or as a quoted name for the bounds of time, which read badly as digits. */
  static String time(long t) {
    if (t == Time.MIN) {
      return "\"-inf\"";
    }
    if (t == Time.GLOBAL_MAX_TIMESTAMP) {
      return "\"globalMax\"";
    }
    if (t == Time.GLOBAL_MAX_TIMESTAMP + 1) {
      return "\"globalEnd\"";
    }
    return Long.toString(t);
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
