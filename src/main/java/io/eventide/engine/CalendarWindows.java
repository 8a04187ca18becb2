package io.eventide.engine;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Objects;

/**
 * Days, weeks, months or years in a named time zone (an Eventide extension of Beam's calendar
 * windows). Boundaries sit at local midnight, so a day across a DST change lasts 23 or 25 hours and
 * months have their real lengths. Windows are counted in steps of {@code multiple} units from
 * {@code startDate}; weeks are aligned to {@code weekStart}.
 */
public final class CalendarWindows implements WindowFn {
  /** The calendar unit of a window. */
  public enum Unit {
    DAYS,
    WEEKS,
    MONTHS,
    YEARS
  }

  private final Unit unit;
  private final int multiple;
  private final ZoneId zone;
  private final LocalDate startDate;
  private final DayOfWeek weekStart;

  /** The origin of the count: the start date, moved back to the week start for weeks. */
  private final LocalDate origin;

  // Consecutive elements mostly fall into the same window; this skips the calendar arithmetic.
  private long cachedStart = Long.MAX_VALUE;
  private long cachedEnd = Long.MIN_VALUE;

  public CalendarWindows(
      Unit unit, int multiple, ZoneId zone, LocalDate startDate, DayOfWeek weekStart) {
    if (multiple < 1) {
      throw new IllegalArgumentException("multiple must be at least 1");
    }
    this.unit = Objects.requireNonNull(unit);
    this.multiple = multiple;
    this.zone = Objects.requireNonNull(zone);
    this.startDate = Objects.requireNonNull(startDate);
    this.weekStart = weekStart == null ? DayOfWeek.MONDAY : weekStart;
    this.origin =
        unit == Unit.WEEKS
            ? startDate.with(TemporalAdjusters.previousOrSame(this.weekStart))
            : startDate;
  }

  public Unit unit() {
    return unit;
  }

  public int multiple() {
    return multiple;
  }

  public ZoneId zone() {
    return zone;
  }

  public LocalDate startDate() {
    return startDate;
  }

  public DayOfWeek weekStart() {
    return weekStart;
  }

  @Override
  public int maxWindowsPerElement() {
    return 1;
  }

  @Override
  public int assign(long timestamp, long[] starts, long[] ends) {
    if (timestamp < cachedStart || timestamp >= cachedEnd) {
      LocalDate day = Instant.ofEpochMilli(timestamp).atZone(zone).toLocalDate();
      long k = Math.floorDiv(unitsBetween(origin, day), multiple);
      LocalDate first = origin.plus(k * multiple, chronoUnit());
      // Month and year arithmetic clamps to shorter months; step back when it overshoots.
      while (first.isAfter(day)) {
        k--;
        first = origin.plus(k * multiple, chronoUnit());
      }
      LocalDate next = origin.plus((k + 1) * multiple, chronoUnit());
      while (!next.isAfter(day)) {
        k++;
        first = next;
        next = origin.plus((k + 1) * multiple, chronoUnit());
      }
      cachedStart = first.atStartOfDay(zone).toInstant().toEpochMilli();
      cachedEnd = next.atStartOfDay(zone).toInstant().toEpochMilli();
    }
    starts[0] = cachedStart;
    ends[0] = cachedEnd;
    return 1;
  }

  private long unitsBetween(LocalDate from, LocalDate to) {
    return chronoUnit().between(from, to);
  }

  private ChronoUnit chronoUnit() {
    return switch (unit) {
      case DAYS -> ChronoUnit.DAYS;
      case WEEKS -> ChronoUnit.WEEKS;
      case MONTHS -> ChronoUnit.MONTHS;
      case YEARS -> ChronoUnit.YEARS;
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CalendarWindows c
        && unit == c.unit
        && multiple == c.multiple
        && zone.equals(c.zone)
        && startDate.equals(c.startDate)
        && weekStart == c.weekStart;
  }

  @Override
  public int hashCode() {
    return Objects.hash(unit, multiple, zone, startDate, weekStart);
  }

  @Override
  public String toString() {
    return "CalendarWindows[" + unit + " x" + multiple + " " + zone + " from " + startDate + "]";
  }
}
