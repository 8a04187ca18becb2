package io.eventide.definition;

import io.eventide.engine.CalendarWindows;
import io.eventide.engine.WindowFn;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/** The window function of a pipeline, with durations as written (normalised to ISO-8601). */
public sealed interface WindowDefinition {
  List<String> TYPES = List.of("fixed", "sliding", "session", "global", "calendar");

  String type();

  WindowFn windowFn();

  /** Answers with what {@code visitor} makes of this kind of window. */
  <R> R accept(Visitor<R> visitor);

  /**
   * What a writer makes of each kind of window; a new kind does not compile until every writer
   * handles it.
   */
  interface Visitor<R> {
    R fixed(Fixed w);

    R sliding(Sliding w);

    R session(Session w);

    R global(Global w);

    R calendar(Calendar w);
  }

  /** Windows of {@code size} whose boundaries sit at {@code offset} after each multiple of size. */
  record Fixed(Duration size, Duration offset) implements WindowDefinition {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.fixed(this);
    }

    @Override
    public String type() {
      return "fixed";
    }

    @Override
    public WindowFn windowFn() {
      return new WindowFn.Fixed(size.toMillis(), offset.toMillis());
    }
  }

  /** Windows of {@code size} starting every {@code period}, shifted by {@code offset}. */
  record Sliding(Duration size, Duration period, Duration offset) implements WindowDefinition {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.sliding(this);
    }

    @Override
    public String type() {
      return "sliding";
    }

    @Override
    public WindowFn windowFn() {
      return new WindowFn.Sliding(size.toMillis(), period.toMillis(), offset.toMillis());
    }
  }

  /** Per-key sessions that close after {@code gap} without elements. */
  record Session(Duration gap) implements WindowDefinition {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.session(this);
    }

    @Override
    public String type() {
      return "session";
    }

    @Override
    public WindowFn windowFn() {
      return new WindowFn.Session(gap.toMillis());
    }
  }

  /** One window over all time. */
  record Global() implements WindowDefinition {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.global(this);
    }

    @Override
    public String type() {
      return "global";
    }

    @Override
    public WindowFn windowFn() {
      return new WindowFn.Global();
    }
  }

  /**
   * Days, weeks, months or years of local time in {@code timeZone}, counted in steps of {@code
   * multiple} from {@code startDate}.
   *
   * @param weekStart the first day of a week; null unless the unit is weeks
   */
  record Calendar(
      CalendarWindows.Unit unit,
      int multiple,
      ZoneId timeZone,
      LocalDate startDate,
      DayOfWeek weekStart)
      implements WindowDefinition {
    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.calendar(this);
    }

    /** Beam's defaults, so that a window written as a Beam expression means the same here. */
    public static final ZoneId DEFAULT_ZONE = ZoneId.of("UTC");

    public static final LocalDate DEFAULT_START = LocalDate.of(1970, 1, 1);

    @Override
    public String type() {
      return "calendar";
    }

    @Override
    public WindowFn windowFn() {
      return new CalendarWindows(unit, multiple, timeZone, startDate, weekStart);
    }
  }
}
