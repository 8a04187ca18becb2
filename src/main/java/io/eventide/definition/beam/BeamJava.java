package io.eventide.definition.beam;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.WindowDefinition;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.CalendarWindows;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The canonical Beam Java expression of a trigger, a window or a whole windowing chain: what a Beam
 * user would write, and what {@link io.eventide.definition.beam.BeamExpression} reads back into the
 * same definition.
 */
public final class BeamJava {
  /** Beam's Java names of the enums whose constants Eventide's share. */
  static final String CLOSING_BEHAVIOR = "Window.ClosingBehavior";

  static final String ON_TIME_BEHAVIOR = "Window.OnTimeBehavior";
  static final String TIMESTAMP_COMBINER = "TimestampCombiner";

  /** Joda's zero duration, which no unit writes as well. */
  static final String ZERO = "Duration.ZERO";

  /** Units from the largest down; a duration is written in the largest that divides it. */
  private static final List<DurationUnit> UNITS =
      List.of(
          new DurationUnit("standardDays", Duration.ofDays(1)),
          new DurationUnit("standardHours", Duration.ofHours(1)),
          new DurationUnit("standardMinutes", Duration.ofMinutes(1)),
          new DurationUnit("standardSeconds", Duration.ofSeconds(1)),
          new DurationUnit("millis", Duration.ofMillis(1)));

  private record DurationUnit(String method, Duration length) {}

  private BeamJava() {}

  public static String trigger(Trigger t) {
    return t.accept(TRIGGERS);
  }

  private static final Trigger.Visitor<String> TRIGGERS =
      new Trigger.Visitor<>() {
        @Override
        public String defaultTrigger(Trigger.Default t) {
          return "DefaultTrigger.of()";
        }

        @Override
        public String afterWatermark(Trigger.AfterWatermark w) {
          return "AfterWatermark.pastEndOfWindow()"
              + (w.early() == null ? "" : ".withEarlyFirings(" + trigger(w.early()) + ")")
              + (w.late() == null ? "" : ".withLateFirings(" + trigger(w.late()) + ")");
        }

        @Override
        public String afterProcessingTime(Trigger.AfterProcessingTime p) {
          return "AfterProcessingTime.pastFirstElementInPane()"
              + (p.delayMillis() == 0
                  ? ""
                  : ".plusDelayOf(" + duration(Duration.ofMillis(p.delayMillis())) + ")");
        }

        @Override
        public String afterCount(Trigger.AfterCount c) {
          return "AfterPane.elementCountAtLeast(" + c.count() + ")";
        }

        @Override
        public String repeatedly(Trigger.Repeatedly r) {
          return "Repeatedly.forever(" + trigger(r.trigger()) + ")";
        }

        @Override
        public String afterEach(Trigger.AfterEach e) {
          return "AfterEach.inOrder(" + triggers(e.triggers()) + ")";
        }

        @Override
        public String afterFirst(Trigger.AfterFirst f) {
          return "AfterFirst.of(" + onceOrList(f.triggers()) + ")";
        }

        @Override
        public String afterAll(Trigger.AfterAll a) {
          return "AfterAll.of(" + onceOrList(a.triggers()) + ")";
        }

        @Override
        public String orFinally(Trigger.OrFinally o) {
          return trigger(o.trigger()) + ".orFinally(" + trigger(o.until()) + ")";
        }

        @Override
        public String never(Trigger.Never t) {
          return "Never.ever()";
        }
      };

  public static String window(WindowDefinition w) {
    return w.accept(WINDOWS);
  }

  private static final WindowDefinition.Visitor<String> WINDOWS =
      new WindowDefinition.Visitor<>() {
        @Override
        public String fixed(WindowDefinition.Fixed f) {
          return "FixedWindows.of(" + duration(f.size()) + ")" + offset(f.offset());
        }

        @Override
        public String sliding(WindowDefinition.Sliding s) {
          return "SlidingWindows.of("
              + duration(s.size())
              + ").every("
              + duration(s.period())
              + ")"
              + offset(s.offset());
        }

        @Override
        public String session(WindowDefinition.Session s) {
          return "Sessions.withGapDuration(" + duration(s.gap()) + ")";
        }

        @Override
        public String global(WindowDefinition.Global g) {
          return "new GlobalWindows()";
        }

        @Override
        public String calendar(WindowDefinition.Calendar c) {
          return BeamJava.calendar(c);
        }
      };

  /**
   * The windowing chain of {@code d}: the window, then the settings that differ from Beam's
   * defaults, and those Beam's Java SDK requires although they do not (an allowed lateness with a
   * trigger, unless the windows are global; the accumulation mode when more than one pane may
   * fire), so that Beam would accept the chain too.
   */
  public static String windowing(PipelineDefinition d) {
    boolean global = d.window() instanceof WindowDefinition.Global;
    boolean triggered = !(d.trigger() instanceof Trigger.Default);
    boolean late = !d.allowedLateness().isZero();
    boolean closing = d.closingBehavior() != ClosingBehavior.FIRE_IF_NON_EMPTY;
    StringBuilder java = new StringBuilder("Window.into(").append(window(d.window())).append(')');
    if (triggered) {
      java.append(".triggering(").append(trigger(d.trigger())).append(')');
    }
    if (late || closing || (triggered && !global)) {
      java.append(".withAllowedLateness(").append(duration(d.allowedLateness()));
      if (closing) {
        java.append(", ").append(constant(CLOSING_BEHAVIOR, d.closingBehavior()));
      }
      java.append(')');
    }
    if (d.accumulation() != AccumulationMode.DISCARDING || triggered || (late && !global)) {
      java.append('.').append(panes(d.accumulation())).append("()");
    }
    if (d.timestampCombiner() != TimestampCombiner.END_OF_WINDOW) {
      java.append(".withTimestampCombiner(")
          .append(constant(TIMESTAMP_COMBINER, d.timestampCombiner()))
          .append(')');
    }
    if (d.onTimeBehavior() != OnTimeBehavior.FIRE_ALWAYS) {
      java.append(".withOnTimeBehavior(")
          .append(constant(ON_TIME_BEHAVIOR, d.onTimeBehavior()))
          .append(')');
    }
    return java.toString();
  }

  /** The method of Beam's {@code Window} that sets {@code mode}. */
  static String panes(AccumulationMode mode) {
    return switch (mode) {
      case DISCARDING -> "discardingFiredPanes";
      case ACCUMULATING -> "accumulatingFiredPanes";
      case RETRACTING -> "accumulatingAndRetractingFiredPanes";
    };
  }

  /** {@code value} as Beam's Java names it in the enum {@code type}. */
  static String constant(String type, Enum<?> value) {
    return type + "." + value.name();
  }

  /** A Joda duration in the largest unit that divides it exactly. */
  static String duration(Duration d) {
    if (d.isZero()) {
      return ZERO;
    }
    for (DurationUnit unit : UNITS) {
      if (d.toMillis() % unit.length().toMillis() == 0) {
        return "Duration." + unit.method() + "(" + d.toMillis() / unit.length().toMillis() + ")";
      }
    }
    throw new IllegalStateException("millis divide every duration");
  }

  private static String offset(Duration offset) {
    return offset.isZero() ? "" : ".withOffset(" + duration(offset) + ")";
  }

  private static String triggers(List<Trigger> triggers) {
    return triggers.stream().map(BeamJava::trigger).collect(Collectors.joining(", "));
  }

  /**
   * The arguments of {@code AfterFirst.of} or {@code AfterAll.of}: varargs while every sub-trigger
   * is single-fire, as that overload takes only {@code OnceTrigger}s, else a {@code List<Trigger>}.
   */
  private static String onceOrList(List<Trigger> triggers) {
    return triggers.stream().allMatch(Trigger::isOnce)
        ? triggers(triggers)
        : "Arrays.asList(" + triggers(triggers) + ")";
  }

  /**
   * Calendar windows with Beam's builder methods; the start and the zone appear only when they
   * differ from Beam's defaults (1970-01-01, UTC).
   */
  private static String calendar(WindowDefinition.Calendar c) {
    String unit = c.unit().name().toLowerCase(Locale.ROOT);
    StringBuilder java = new StringBuilder("CalendarWindows.").append(unit).append('(');
    java.append(c.multiple());
    if (c.unit() == CalendarWindows.Unit.WEEKS) {
      java.append(", DateTimeConstants.").append(c.weekStart().name());
    }
    java.append(')');
    LocalDate start = c.startDate();
    if (!start.equals(WindowDefinition.Calendar.DEFAULT_START)) {
      switch (c.unit()) {
        case DAYS, WEEKS ->
            java.append(".withStartingDay(")
                .append(start.getYear())
                .append(", ")
                .append(start.getMonthValue())
                .append(", ")
                .append(start.getDayOfMonth())
                .append(')');
        case MONTHS -> {
          java.append(".withStartingMonth(")
              .append(start.getYear())
              .append(", ")
              .append(start.getMonthValue())
              .append(')');
          if (start.getDayOfMonth() != 1) {
            java.append(".beginningOnDay(").append(start.getDayOfMonth()).append(')');
          }
        }
        case YEARS -> {
          java.append(".withStartingYear(").append(start.getYear()).append(')');
          if (start.getDayOfYear() != 1) {
            java.append(".beginningOnDay(")
                .append(start.getMonthValue())
                .append(", ")
                .append(start.getDayOfMonth())
                .append(')');
          }
        }
      }
    }
    if (!c.timeZone().equals(WindowDefinition.Calendar.DEFAULT_ZONE)) {
      java.append(".withTimeZone(DateTimeZone.forID(\"")
          .append(c.timeZone().getId())
          .append("\"))");
    }
    return java.toString();
  }
}
