package io.eventide.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class CalendarWindowsTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final LocalDate JAN_1 = LocalDate.of(2026, 1, 1);

  private static Window assign(CalendarWindows fn, LocalDateTime localTime) {
    long[] s = new long[1];
    long[] e = new long[1];
    fn.assign(localTime.atZone(fn.zone()).toInstant().toEpochMilli(), s, e);
    return new Window(s[0], e[0]);
  }

  private static long at(LocalDateTime t) {
    return t.atZone(BERLIN).toInstant().toEpochMilli();
  }

  private static CalendarWindows days(int multiple) {
    return new CalendarWindows(CalendarWindows.Unit.DAYS, multiple, BERLIN, JAN_1, null);
  }

  @Test
  void aDayStartsAtLocalMidnight() {
    Window w = assign(days(1), LocalDateTime.of(2026, 6, 15, 13, 30));
    assertThat(w.start()).isEqualTo(at(LocalDateTime.of(2026, 6, 15, 0, 0)));
    assertThat(Duration.ofMillis(w.end() - w.start())).isEqualTo(Duration.ofHours(24));
  }

  @Test
  void theSpringDstDayHas23HoursAndTheAutumnOne25() {
    Window spring = assign(days(1), LocalDateTime.of(2026, 3, 29, 12, 0));
    Window autumn = assign(days(1), LocalDateTime.of(2026, 10, 25, 12, 0));
    assertThat(Duration.ofMillis(spring.end() - spring.start())).isEqualTo(Duration.ofHours(23));
    assertThat(Duration.ofMillis(autumn.end() - autumn.start())).isEqualTo(Duration.ofHours(25));
  }

  @Test
  void theHourRepeatedInAutumnBelongsToTheSameDay() {
    long first = LocalDateTime.of(2026, 10, 25, 2, 30).atZone(BERLIN).toInstant().toEpochMilli();
    long repeated = first + Duration.ofHours(1).toMillis();
    CalendarWindows fn = days(1);
    long[] s = new long[1];
    long[] e = new long[1];
    fn.assign(first, s, e);
    Window a = new Window(s[0], e[0]);
    fn.assign(repeated, s, e);
    assertThat(new Window(s[0], e[0])).isEqualTo(a);
  }

  @Test
  void multiplesCountFromTheStartDate() {
    Window w = assign(days(3), LocalDateTime.of(2026, 1, 5, 8, 0));
    assertThat(w.start()).isEqualTo(at(LocalDateTime.of(2026, 1, 4, 0, 0)));
    assertThat(w.end()).isEqualTo(at(LocalDateTime.of(2026, 1, 7, 0, 0)));
    Window before = assign(days(3), LocalDateTime.of(2025, 12, 30, 8, 0));
    assertThat(before.start()).isEqualTo(at(LocalDateTime.of(2025, 12, 29, 0, 0)));
  }

  @Test
  void weeksStartOnMondayUnlessTold() {
    CalendarWindows monday =
        new CalendarWindows(CalendarWindows.Unit.WEEKS, 1, BERLIN, JAN_1, null);
    Window w = assign(monday, LocalDateTime.of(2026, 1, 8, 10, 0)); // a Thursday
    assertThat(w.start()).isEqualTo(at(LocalDateTime.of(2026, 1, 5, 0, 0)));
    assertThat(w.end()).isEqualTo(at(LocalDateTime.of(2026, 1, 12, 0, 0)));

    CalendarWindows sunday =
        new CalendarWindows(CalendarWindows.Unit.WEEKS, 1, BERLIN, JAN_1, DayOfWeek.SUNDAY);
    assertThat(assign(sunday, LocalDateTime.of(2026, 1, 8, 10, 0)).start())
        .isEqualTo(at(LocalDateTime.of(2026, 1, 4, 0, 0)));
  }

  @Test
  void monthsHaveTheirRealLengthIncludingFebruary29() {
    CalendarWindows months =
        new CalendarWindows(CalendarWindows.Unit.MONTHS, 1, BERLIN, JAN_1, null);
    Window feb2028 = assign(months, LocalDateTime.of(2028, 2, 29, 23, 59));
    assertThat(feb2028.start()).isEqualTo(at(LocalDateTime.of(2028, 2, 1, 0, 0)));
    assertThat(feb2028.end()).isEqualTo(at(LocalDateTime.of(2028, 3, 1, 0, 0)));
    assertThat(Duration.ofMillis(feb2028.end() - feb2028.start())).isEqualTo(Duration.ofDays(29));
    Window march2026 = assign(months, LocalDateTime.of(2026, 3, 15, 0, 0));
    // March 2026 loses an hour to DST.
    assertThat(Duration.ofMillis(march2026.end() - march2026.start()))
        .isEqualTo(Duration.ofDays(31).minusHours(1));
  }

  @Test
  void quartersAndYears() {
    CalendarWindows quarters =
        new CalendarWindows(CalendarWindows.Unit.MONTHS, 3, BERLIN, JAN_1, null);
    Window q2 = assign(quarters, LocalDateTime.of(2026, 5, 20, 0, 0));
    assertThat(q2.start()).isEqualTo(at(LocalDateTime.of(2026, 4, 1, 0, 0)));
    assertThat(q2.end()).isEqualTo(at(LocalDateTime.of(2026, 7, 1, 0, 0)));
    CalendarWindows years = new CalendarWindows(CalendarWindows.Unit.YEARS, 1, BERLIN, JAN_1, null);
    Window y = assign(years, LocalDateTime.of(2028, 2, 29, 12, 0));
    assertThat(y.start()).isEqualTo(at(LocalDateTime.of(2028, 1, 1, 0, 0)));
    assertThat(y.end()).isEqualTo(at(LocalDateTime.of(2029, 1, 1, 0, 0)));
  }

  @Test
  void aDailyPipelineFiresEachLocalDayOnceTheWatermarkPassesMidnight() {
    EngineTester t =
        EngineTester.of(WindowingStrategy.of(days(1)), "sum")
            .inject(
                EngineTester.el(at(LocalDateTime.of(2026, 3, 28, 23, 0)), 1),
                EngineTester.el(at(LocalDateTime.of(2026, 3, 29, 1, 0)), 2),
                EngineTester.el(at(LocalDateTime.of(2026, 3, 29, 23, 30)), 3));
    t.advanceWatermark(at(LocalDateTime.of(2026, 3, 29, 0, 0)));
    assertThat(PaneAssert.values(t.takePanes())).containsExactly(1L);
    t.advanceWatermark(at(LocalDateTime.of(2026, 3, 30, 0, 0)));
    List<Pane> panes = t.takePanes();
    assertThat(PaneAssert.values(panes)).containsExactly(5L);
    assertThat(panes.get(0).timestamp()).isEqualTo(at(LocalDateTime.of(2026, 3, 30, 0, 0)) - 1);
  }

  @Test
  void multipleMustBePositive() {
    assertThatThrownBy(() -> new CalendarWindows(CalendarWindows.Unit.DAYS, 0, BERLIN, JAN_1, null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
