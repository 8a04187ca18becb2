package io.eventide.definition.beam;

import static io.eventide.definition.json.PipelineParserTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.WindowDefinition;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.PipelineJson;
import io.eventide.definition.json.PipelineParserTest;
import io.eventide.definition.json.Violation;
import io.eventide.engine.CalendarWindows;
import io.eventide.engine.Trigger;
import io.eventide.engine.Trigger.AfterAll;
import io.eventide.engine.Trigger.AfterCount;
import io.eventide.engine.Trigger.AfterEach;
import io.eventide.engine.Trigger.AfterFirst;
import io.eventide.engine.Trigger.AfterProcessingTime;
import io.eventide.engine.Trigger.AfterWatermark;
import io.eventide.engine.Trigger.Never;
import io.eventide.engine.Trigger.OrFinally;
import io.eventide.engine.Trigger.Repeatedly;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

class BeamExpressionTest {
  private static final String MINIMAL =
      "{'window':{'type':'fixed','size':'PT1M'},'aggregate':{'type':'sum'}}";

  /** The docs' early/late example: early after a minute, late for every element. */
  private static final Trigger EARLY_AND_LATE =
      new AfterWatermark(new AfterProcessingTime(60_000), new AfterCount(1));

  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  static PipelineDefinition define(String field, String expression) {
    ObjectNode body = (ObjectNode) json(MINIMAL);
    body.put(field, expression);
    return PipelineParserTest.parse(body);
  }

  static Trigger trigger(String expression) {
    return define("trigger", expression).trigger();
  }

  static WindowDefinition window(String expression) {
    return define("window", expression).window();
  }

  static List<Violation> violations(String field, String expression) {
    return catchThrowableOfType(InvalidInputException.class, () -> define(field, expression))
        .violations();
  }

  /** The reason of the one violation of {@code expression}, which must be at /{field}. */
  static String reason(String field, String expression) {
    List<Violation> found = violations(field, expression);
    assertThat(found).singleElement().extracting(Violation::path).isEqualTo("/" + field);
    return found.get(0).reason();
  }

  static String reason(String trigger) {
    return reason("trigger", trigger);
  }

  static AfterCount count(long n) {
    return new AfterCount(n);
  }

  @Nested
  class Triggers {
    static Stream<Arguments> java() {
      return Stream.of(
          Arguments.of("AfterWatermark.pastEndOfWindow()", new AfterWatermark(null, null)),
          Arguments.of(
              "AfterWatermark.pastEndOfWindow()"
                  + ".withEarlyFirings(AfterProcessingTime.pastFirstElementInPane()"
                  + ".plusDelayOf(Duration.standardMinutes(1)))"
                  + ".withLateFirings(AfterPane.elementCountAtLeast(1))",
              EARLY_AND_LATE),
          Arguments.of(
              "AfterWatermark.pastEndOfWindow().withLateFirings(AfterPane.elementCountAtLeast(1))",
              new AfterWatermark(null, count(1))),
          Arguments.of(
              "AfterProcessingTime.pastFirstElementInPane()"
                  + ".plusDelayOf(Duration.standardMinutes(1))",
              new AfterProcessingTime(60_000)),
          Arguments.of("AfterProcessingTime.pastFirstElementInPane()", new AfterProcessingTime(0)),
          Arguments.of("AfterPane.elementCountAtLeast(100)", count(100)),
          Arguments.of(
              "Repeatedly.forever(AfterPane.elementCountAtLeast(3))", new Repeatedly(count(3))),
          Arguments.of(
              "AfterEach.inOrder(AfterPane.elementCountAtLeast(2),"
                  + " AfterPane.elementCountAtLeast(3))",
              new AfterEach(List.of(count(2), count(3)))),
          Arguments.of(
              "AfterFirst.of(AfterPane.elementCountAtLeast(100),"
                  + " AfterProcessingTime.pastFirstElementInPane()"
                  + ".plusDelayOf(Duration.standardSeconds(30)))",
              new AfterFirst(List.of(count(100), new AfterProcessingTime(30_000)))),
          Arguments.of(
              "AfterAll.of(AfterPane.elementCountAtLeast(2), AfterWatermark.pastEndOfWindow())",
              new AfterAll(List.of(count(2), new AfterWatermark(null, null)))),
          Arguments.of(
              "Repeatedly.forever(AfterPane.elementCountAtLeast(1))"
                  + ".orFinally(AfterWatermark.pastEndOfWindow())",
              new OrFinally(new Repeatedly(count(1)), new AfterWatermark(null, null))),
          Arguments.of("Never.ever()", new Never()),
          Arguments.of("DefaultTrigger.of()", new Trigger.Default()),
          Arguments.of(
              "AfterProcessingTime.pastFirstElementInPane().plusDelayOf(Duration.millis(250))"
                  + ".plusDelayOf(Duration.standardHours(2))",
              new AfterProcessingTime(7_200_250)),
          Arguments.of(
              "AfterProcessingTime.pastFirstElementInPane()"
                  + ".plusDelayOf(Duration.standardDays(1))",
              new AfterProcessingTime(86_400_000)));
    }

    static Stream<Arguments> python() {
      return Stream.of(
          Arguments.of(
              "AfterWatermark(early=AfterProcessingTime(60), late=AfterCount(1))", EARLY_AND_LATE),
          Arguments.of(
              "AfterWatermark(early=AfterProcessingTime(delay=1 * 60), late=AfterCount(1))",
              EARLY_AND_LATE),
          Arguments.of("AfterWatermark(AfterProcessingTime(60), AfterCount(1))", EARLY_AND_LATE),
          Arguments.of("AfterWatermark(late=AfterCount(1))", new AfterWatermark(null, count(1))),
          Arguments.of("AfterCount(100)", count(100)),
          Arguments.of("AfterProcessingTime(60)", new AfterProcessingTime(60_000)),
          Arguments.of("AfterProcessingTime(0.25)", new AfterProcessingTime(250)),
          Arguments.of("AfterProcessingTime()", new AfterProcessingTime(0)),
          Arguments.of("Repeatedly(AfterCount(3))", new Repeatedly(count(3))),
          Arguments.of(
              "AfterAny(AfterCount(100), AfterProcessingTime(60))",
              new AfterFirst(List.of(count(100), new AfterProcessingTime(60_000)))),
          Arguments.of(
              "AfterAll(AfterCount(2), AfterWatermark())",
              new AfterAll(List.of(count(2), new AfterWatermark(null, null)))),
          Arguments.of(
              "AfterEach(AfterCount(2), AfterCount(3))",
              new AfterEach(List.of(count(2), count(3)))),
          Arguments.of(
              "OrFinally(Repeatedly(AfterCount(1)), AfterCount(3))",
              new OrFinally(new Repeatedly(count(1)), count(3))),
          Arguments.of("DefaultTrigger()", new Trigger.Default()),
          Arguments.of("Always()", new Repeatedly(count(1))),
          Arguments.of("trigger.Repeatedly(trigger.AfterCount(2))", new Repeatedly(count(2))),
          Arguments.of(
              "trigger.AfterWatermark(early=trigger.AfterProcessingTime(60),"
                  + " late=trigger.AfterCount(1),)",
              EARLY_AND_LATE));
    }

    static Stream<Arguments> go() {
      return Stream.of(
          Arguments.of(
              "trigger.AfterEndOfWindow()"
                  + ".EarlyFiring(trigger.AfterProcessingTime().PlusDelay(60 * time.Second))"
                  + ".LateFiring(trigger.Repeat(trigger.AfterCount(1)))",
              EARLY_AND_LATE),
          Arguments.of("trigger.AfterEndOfWindow()", new AfterWatermark(null, null)),
          Arguments.of("trigger.AfterCount(5)", count(5)),
          Arguments.of("trigger.Repeat(trigger.AfterCount(2))", new Repeatedly(count(2))),
          Arguments.of(
              "trigger.AfterProcessingTime().PlusDelay(time.Minute)",
              new AfterProcessingTime(60_000)),
          Arguments.of(
              "trigger.AfterProcessingTime().PlusDelay(time.Duration(5) * time.Second)",
              new AfterProcessingTime(5_000)),
          Arguments.of(
              "trigger.AfterProcessingTime().PlusDelay(250*time.Millisecond)",
              new AfterProcessingTime(250)),
          Arguments.of(
              "trigger.AfterAny([]trigger.Trigger{trigger.AfterCount(2),"
                  + " trigger.AfterProcessingTime().PlusDelay(time.Hour)})",
              new AfterFirst(List.of(count(2), new AfterProcessingTime(3_600_000)))),
          Arguments.of(
              "trigger.AfterAll([]trigger.Trigger{trigger.AfterCount(2), trigger.Never()})",
              new AfterAll(List.of(count(2), new Never()))),
          Arguments.of(
              "trigger.AfterEach([]trigger.Trigger{\n  trigger.AfterCount(2),\n"
                  + "  trigger.AfterCount(3),\n})",
              new AfterEach(List.of(count(2), count(3)))),
          Arguments.of(
              "trigger.OrFinally(trigger.Repeat(trigger.AfterCount(1)), trigger.AfterCount(3))",
              new OrFinally(new Repeatedly(count(1)), count(3))),
          Arguments.of("trigger.Default()", new Trigger.Default()),
          Arguments.of("trigger.Never()", new Never()),
          Arguments.of("trigger.Always()", new Repeatedly(count(1))));
    }

    @ParameterizedTest
    @MethodSource({"java", "python", "go", "compositesOverRepeatingTriggers"})
    void readsTheFormsOfBeamsDocs(String expression, Trigger expected) {
      assertThat(trigger(expression)).isEqualTo(expected);
    }

    @Test
    void readsNestedCombinationsAcrossLines() {
      assertThat(
              trigger(
                  """
                  Repeatedly.forever(
                    AfterFirst.of(
                      AfterPane.elementCountAtLeast(100),
                      AfterWatermark.pastEndOfWindow(),
                      AfterAll.of(
                        AfterProcessingTime.pastFirstElementInPane()
                            .plusDelayOf(Duration.standardSeconds(90)),
                        AfterFirst.of(AfterPane.elementCountAtLeast(2), Never.ever()))))
                  \t.orFinally(AfterWatermark.pastEndOfWindow())
                  """))
          .isEqualTo(
              new OrFinally(
                  new Repeatedly(
                      new AfterFirst(
                          List.of(
                              count(100),
                              new AfterWatermark(null, null),
                              new AfterAll(
                                  List.of(
                                      new AfterProcessingTime(90_000),
                                      new AfterFirst(List.of(count(2), new Never()))))))),
                  new AfterWatermark(null, null)));
    }

    /** AfterFirst and AfterAll over sub-triggers that are not single-fire, in every SDK. */
    static Stream<Arguments> compositesOverRepeatingTriggers() {
      Trigger repeatedAndCount =
          new AfterAll(List.of(new Repeatedly(count(2)), new AfterWatermark(count(1), count(1))));
      Trigger eachAndOrFinally =
          new AfterFirst(
              List.of(
                  new AfterEach(List.of(count(1), count(2))),
                  new OrFinally(new Trigger.Default(), count(5))));
      return Stream.of(
          Arguments.of(
              "AfterAll.of(Arrays.asList(Repeatedly.forever(AfterPane.elementCountAtLeast(2)),"
                  + " AfterWatermark.pastEndOfWindow()"
                  + ".withEarlyFirings(AfterPane.elementCountAtLeast(1))"
                  + ".withLateFirings(AfterPane.elementCountAtLeast(1))))",
              repeatedAndCount),
          Arguments.of(
              "AfterFirst.of(List.of(AfterEach.inOrder(AfterPane.elementCountAtLeast(1),"
                  + " AfterPane.elementCountAtLeast(2)),"
                  + " DefaultTrigger.of().orFinally(AfterPane.elementCountAtLeast(5))))",
              eachAndOrFinally),
          Arguments.of(
              "AfterAll(Repeatedly(AfterCount(2)), AfterWatermark(early=AfterCount(1),"
                  + " late=AfterCount(1)))",
              repeatedAndCount),
          Arguments.of(
              "AfterAny(AfterEach(AfterCount(1), AfterCount(2)),"
                  + " OrFinally(DefaultTrigger(), AfterCount(5)))",
              eachAndOrFinally),
          Arguments.of(
              "trigger.AfterAll([]trigger.Trigger{trigger.Repeat(trigger.AfterCount(2)),"
                  + " trigger.AfterEndOfWindow().EarlyFiring(trigger.AfterCount(1))"
                  + ".LateFiring(trigger.AfterCount(1))})",
              repeatedAndCount),
          Arguments.of(
              "trigger.AfterAny([]trigger.Trigger{trigger.AfterEach([]trigger.Trigger{"
                  + "trigger.AfterCount(1), trigger.AfterCount(2)}),"
                  + " trigger.OrFinally(trigger.Default(), trigger.AfterCount(5))})",
              eachAndOrFinally),
          // Java's List overload takes single-fire triggers too.
          Arguments.of(
              "AfterFirst.of(Arrays.asList(AfterPane.elementCountAtLeast(2),"
                  + " AfterWatermark.pastEndOfWindow()))",
              new AfterFirst(List.of(count(2), new AfterWatermark(null, null)))));
    }

    @Test
    void normalisesToTheSameDefinitionAsTheTree() {
      PipelineDefinition fromTree =
          PipelineParserTest.parse(
              PipelineParserTest.with(
                  "trigger",
                  "{'type':'afterWatermark','early':{'type':'afterProcessingTime',"
                      + "'delay':'PT1M'},'late':{'type':'afterCount','count':1}}",
                  "window",
                  "{'type':'sliding','size':'PT1H','period':'PT5M'}"));
      for (String[] expressions :
          List.of(
              new String[] {
                "AfterWatermark.pastEndOfWindow().withEarlyFirings(AfterProcessingTime"
                    + ".pastFirstElementInPane().plusDelayOf(Duration.standardMinutes(1)))"
                    + ".withLateFirings(AfterPane.elementCountAtLeast(1))",
                "SlidingWindows.of(Duration.standardHours(1)).every(Duration.standardMinutes(5))"
              },
              new String[] {
                "AfterWatermark(early=AfterProcessingTime(60), late=AfterCount(1))",
                "SlidingWindows(3600, 300)"
              },
              new String[] {
                "trigger.AfterEndOfWindow().EarlyFiring(trigger.AfterProcessingTime()"
                    + ".PlusDelay(60 * time.Second)).LateFiring(trigger.AfterCount(1))",
                "window.NewSlidingWindows(5 * time.Minute, time.Hour)"
              })) {
        ObjectNode body = (ObjectNode) json(MINIMAL);
        body.put("trigger", expressions[0]).put("window", expressions[1]);
        PipelineDefinition fromExpressions = PipelineParserTest.parse(body);
        assertThat(fromExpressions).isEqualTo(fromTree);
        assertThat(PipelineJson.withWarnings(fromExpressions))
            .isEqualTo(PipelineJson.withWarnings(fromTree));
      }
    }
  }

  @Nested
  class Windows {
    static Stream<Arguments> windows() {
      Duration minute = Duration.ofMinutes(1);
      return Stream.of(
          Arguments.of(
              "FixedWindows.of(Duration.standardMinutes(5))",
              new WindowDefinition.Fixed(minute.multipliedBy(5), Duration.ZERO)),
          Arguments.of(
              "FixedWindows.of(Duration.standardHours(1)).withOffset(Duration.standardMinutes(15))",
              new WindowDefinition.Fixed(Duration.ofHours(1), minute.multipliedBy(15))),
          Arguments.of(
              "SlidingWindows.of(Duration.standardMinutes(30)).every(Duration.standardSeconds(5))",
              new WindowDefinition.Sliding(
                  minute.multipliedBy(30), Duration.ofSeconds(5), Duration.ZERO)),
          Arguments.of(
              "Sessions.withGapDuration(Duration.standardMinutes(10))",
              new WindowDefinition.Session(minute.multipliedBy(10))),
          Arguments.of("new GlobalWindows()", new WindowDefinition.Global()),
          Arguments.of(
              "FixedWindows(300)",
              new WindowDefinition.Fixed(minute.multipliedBy(5), Duration.ZERO)),
          Arguments.of(
              "window.FixedWindows(60, offset=10)",
              new WindowDefinition.Fixed(minute, Duration.ofSeconds(10))),
          Arguments.of(
              "SlidingWindows(3600, 300)",
              new WindowDefinition.Sliding(
                  Duration.ofHours(1), minute.multipliedBy(5), Duration.ZERO)),
          Arguments.of("Sessions(10 * 60)", new WindowDefinition.Session(minute.multipliedBy(10))),
          Arguments.of("window.GlobalWindows()", new WindowDefinition.Global()),
          Arguments.of(
              "window.NewFixedWindows(60 * time.Second)",
              new WindowDefinition.Fixed(minute, Duration.ZERO)),
          Arguments.of(
              "window.NewSlidingWindows(5*time.Second, 30*time.Second)",
              new WindowDefinition.Sliding(
                  Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ZERO)),
          Arguments.of(
              "window.NewSessions(600 * time.Second)",
              new WindowDefinition.Session(minute.multipliedBy(10))),
          Arguments.of("window.NewGlobalWindows()", new WindowDefinition.Global()),
          Arguments.of(
              "CalendarWindows.days(1).withTimeZone(DateTimeZone.forID(\"Europe/Berlin\"))",
              new WindowDefinition.Calendar(
                  CalendarWindows.Unit.DAYS, 1, BERLIN, LocalDate.of(1970, 1, 1), null)),
          Arguments.of(
              "CalendarWindows.weeks(2, DateTimeConstants.SUNDAY).withStartingDay(2026, 1, 4)",
              new WindowDefinition.Calendar(
                  CalendarWindows.Unit.WEEKS,
                  2,
                  ZoneId.of("UTC"),
                  LocalDate.of(2026, 1, 4),
                  DayOfWeek.SUNDAY)),
          Arguments.of(
              "CalendarWindows.weeks(1, 1).withTimeZone(DateTimeZone.UTC)",
              new WindowDefinition.Calendar(
                  CalendarWindows.Unit.WEEKS,
                  1,
                  ZoneId.of("UTC"),
                  LocalDate.of(1970, 1, 1),
                  DayOfWeek.MONDAY)),
          Arguments.of(
              "CalendarWindows.months(3).withStartingMonth(2026, 2).beginningOnDay(15)",
              new WindowDefinition.Calendar(
                  CalendarWindows.Unit.MONTHS,
                  3,
                  ZoneId.of("UTC"),
                  LocalDate.of(2026, 2, 15),
                  null)),
          Arguments.of(
              "CalendarWindows.years(1).withStartingYear(2026).beginningOnDay(4, 1)"
                  + ".withTimeZone(DateTimeZone.forID('Europe/Berlin'))",
              new WindowDefinition.Calendar(
                  CalendarWindows.Unit.YEARS, 1, BERLIN, LocalDate.of(2026, 4, 1), null)));
    }

    @ParameterizedTest
    @MethodSource("windows")
    void readsWindowExpressions(String expression, WindowDefinition expected) {
      assertThat(window(expression)).isEqualTo(expected);
    }

    @Test
    void checksWindowsAsTheTreeReaderDoes() {
      assertThat(reason("window", "FixedWindows(60, offset=60)"))
          .startsWith("offset must be less than size (PT1M) at column 25: ");
      assertThat(reason("window", "SlidingWindows.of(Duration.standardHours(1))"))
          .startsWith("period is required at column 1: ");
      assertThat(
              reason(
                  "window",
                  "CalendarWindows.months(1).withStartingMonth(2026, 2)" + ".beginningOnDay(30)"))
          .startsWith("no such start date: Invalid date 'FEBRUARY 30' at column 54: ");
      assertThat(
              reason(
                  "window",
                  "CalendarWindows.days(1).withTimeZone(DateTimeZone.forID(\"Mars/Olympus\"))"))
          .startsWith(
              "timeZone must be an IANA time zone id such as Europe/Berlin (got 'Mars/Olympus')"
                  + " at column 38: ");
      assertThat(reason("window", "CalendarWindows.days(1).withStartingMonth(2026, 1)"))
          .startsWith("unknown method 'withStartingMonth' at column 25: ")
          .endsWith("known here: withTimeZone, withStartingDay");
    }
  }

  @Nested
  class Malformed {
    @Test
    void quotesTheExpressionAndPutsACaretUnderTheColumn() {
      assertThat(reason("AfterWatermark.pastEndOfWindow().withEarlyFirings()"))
          .isEqualTo(
              "unexpected ')': withEarlyFirings takes a trigger at column 51: "
                  + "AfterWatermark.pastEndOfWindow().withEarlyFirings()\n"
                  + " ".repeat(113)
                  + "^");
    }

    @Test
    void refusesAMissingParenthesis() {
      assertThat(reason("Repeatedly.forever(AfterPane.elementCountAtLeast(3)"))
          .startsWith(
              "unexpected end of expression, expected ')' at column 52: "
                  + "Repeatedly.forever(AfterPane.elementCountAtLeast(3)\n");
      assertThat(reason("AfterCount(1"))
          .startsWith("unexpected end of expression, expected ')' at column 13: ");
      assertThat(reason("new GlobalWindows"))
          .startsWith("unexpected end of expression, expected '(' at column 18: ");
    }

    @Test
    void listsTheKnownNamesForAnUnknownOne() {
      assertThat(reason("AfterPanes.elementCountAtLeast(1)"))
          .startsWith("unknown trigger 'AfterPanes.elementCountAtLeast' at column 1: ")
          .contains(
              "\nknown in Java: AfterWatermark.pastEndOfWindow,"
                  + " AfterProcessingTime.pastFirstElementInPane, AfterPane.elementCountAtLeast")
          .contains("\nknown in Python: AfterWatermark, AfterProcessingTime, AfterCount")
          .contains("\nknown in Go: trigger.AfterEndOfWindow, trigger.AfterProcessingTime");
      assertThat(reason("Repeatedly.forever(AfterPane.elementCountAtLeat(1))"))
          .startsWith("unknown trigger 'AfterPane.elementCountAtLeat' at column 20: ")
          .endsWith(
              "known in Java: AfterWatermark.pastEndOfWindow,"
                  + " AfterProcessingTime.pastFirstElementInPane, AfterPane.elementCountAtLeast,"
                  + " Repeatedly.forever, AfterEach.inOrder, AfterFirst.of, AfterAll.of, Never.ever,"
                  + " DefaultTrigger.of");
      assertThat(reason("AfterWatermark.pastEndOfWindow().withEarlyFiring(Never.ever())"))
          .startsWith("unknown method 'withEarlyFiring' at column 34: ")
          .endsWith("known here: withEarlyFirings, withLateFirings, orFinally");
      assertThat(reason("window", "Fixed(60)"))
          .startsWith("unknown window 'Fixed' at column 1: ")
          .contains("known in Python: FixedWindows, SlidingWindows, Sessions, GlobalWindows");
    }

    @Test
    void refusesBadDurations() {
      assertThat(
              reason(
                  "AfterProcessingTime.pastFirstElementInPane()"
                      + ".plusDelayOf(Duration.standardMinute(1))"))
          .startsWith(
              "expected a duration (Duration.ZERO, Duration.millis, Duration.standardDays,"
                  + " Duration.standardHours, Duration.standardMinutes, Duration.standardSeconds,"
                  + " each optionally prefixed org.joda.time.),"
                  + " found 'Duration.standardMinute(…)' at column 58: ");
      assertThat(
              reason(
                  "AfterProcessingTime.pastFirstElementInPane()"
                      + ".plusDelayOf(Duration.standardSeconds(1.5))"))
          .startsWith("expected a whole number at column 83: ");
      assertThat(reason("AfterProcessingTime('soon')"))
          .startsWith("expected a number, found the string \"soon\" at column 21: ");
      assertThat(reason("AfterProcessingTime(0.0001)"))
          .startsWith(
              "delay must be a whole number of milliseconds (got 'PT0.0001S') at column 21: ");
      assertThat(reason("AfterProcessingTime(-5)"))
          .startsWith("delay must not be negative at column 21: ");
      assertThat(reason("trigger.AfterProcessingTime().PlusDelay(60)"))
          .startsWith(
              "expected a time.Duration such as 60 * time.Second, found the number 60"
                  + " at column 41: ");
      assertThat(reason("trigger.AfterProcessingTime().PlusDelay(60 * time.Seconds)"))
          .startsWith("unknown unit 'time.Seconds' at column 46: ");
    }

    @Test
    void refusesNestingDeeperThanAnyTriggerCould() {
      assertThat(reason("(".repeat(10_000) + "Never.ever()" + ")".repeat(10_000)))
          .startsWith("nested more than 200 levels deep at column 201: ");
      assertThat(reason("Repeatedly.forever(".repeat(64) + "Never.ever()" + ")".repeat(64)))
          .startsWith("must have at most 64 nodes (has 65) at column 1: ");
    }

    @Test
    void refusesTrailingTokens() {
      assertThat(reason("Never.ever() Never.ever()"))
          .startsWith("unexpected 'Never' after the end of the expression at column 14: ");
      assertThat(reason("AfterCount(1))"))
          .startsWith("unexpected ')' after the end of the expression at column 14: ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  \n "})
    void refusesAnEmptyExpression(String empty) {
      assertThat(reason(empty))
          .startsWith("unexpected end of expression, expected a name, a number or a string at ");
    }

    @Test
    void refusesWrongArgumentCounts() {
      assertThat(reason("AfterPane.elementCountAtLeast(1, 2)"))
          .startsWith(
              "unexpected argument: AfterPane.elementCountAtLeast takes a whole number"
                  + " at column 34: ");
      assertThat(reason("Never.ever(1)"))
          .startsWith("unexpected argument: Never.ever takes no arguments at column 12: ");
      assertThat(reason("AfterCount()"))
          .startsWith("unexpected ')': AfterCount takes a whole number at column 12: ");
      assertThat(reason("OrFinally(AfterCount(1), AfterCount(2), AfterCount(3))"))
          .startsWith("unexpected argument: OrFinally takes a trigger, a trigger at column 41: ");
      assertThat(reason("AfterWatermark(early=Never())"))
          .startsWith("unknown trigger 'Never' at column 22: ");
      assertThat(reason("AfterWatermark(early=AfterCount(1), sooner=AfterCount(1))"))
          .startsWith(
              "unknown argument 'sooner': AfterWatermark takes early= a trigger (optional),"
                  + " late= a trigger (optional) at column 37: ");
      assertThat(reason("AfterPane.elementCountAtLeast(count=1)"))
          .startsWith("unexpected 'count=': only Python names arguments at column 31: ");
      // Python reads this as AfterAny(*triggers) and gets furthest: its error is the one shown.
      assertThat(reason("trigger.AfterAny(trigger.AfterCount(1), trigger.Never())"))
          .startsWith("unknown trigger 'trigger.Never' at column 41: ")
          .endsWith(
              "known in Python: AfterWatermark, AfterProcessingTime, AfterCount, Repeatedly,"
                  + " AfterAny, AfterAll, AfterEach, OrFinally, Always, DefaultTrigger, each optionally"
                  + " prefixed trigger.");
    }

    @Test
    void refusesRepeatingTriggersWhereBeamTakesSingleFireOnes() {
      assertThat(
              reason(
                  "AfterWatermark.pastEndOfWindow()"
                      + ".withEarlyFirings(Repeatedly.forever(AfterPane.elementCountAtLeast(1)))"))
          .startsWith(
              "early must be a single-fire trigger (afterCount, afterProcessingTime,"
                  + " afterWatermark without early/late, afterFirst, afterAll or never);"
                  + " got repeatedly at column 51: ");
      assertThat(reason("trigger.OrFinally(trigger.Default(), trigger.Repeat(trigger.Never()))"))
          .startsWith("until must be a single-fire trigger")
          .contains("; got repeatedly at column 38: ");
    }

    @Test
    void refusesRepeatingTriggersInJavasVarargsOverloadAsJavaDoes() {
      assertThat(
              reason(
                  "AfterAll.of(AfterPane.elementCountAtLeast(1),"
                      + " Repeatedly.forever(AfterPane.elementCountAtLeast(1)))"))
          .startsWith(
              "'Repeatedly.forever(…)' is not single-fire: AfterAll.of(OnceTrigger...) takes"
                  + " single-fire triggers only; AfterAll.of(Arrays.asList(…)) takes any trigger"
                  + " at column 47: ");
      assertThat(reason("AfterFirst.of(DefaultTrigger.of(), Never.ever())"))
          .startsWith("'DefaultTrigger.of(…)' is not single-fire: AfterFirst.of(OnceTrigger...)");
    }

    @Test
    void reportsEveryViolationOfTheTreeWithItsColumn() {
      assertThat(violations("trigger", "AfterFirst.of(AfterPane.elementCountAtLeast(0))"))
          .extracting(Violation::reason)
          .satisfiesExactly(
              r ->
                  assertThat(r)
                      .startsWith(
                          "triggers must hold at least 2 triggers (has 1) at" + " column 15: "),
              r -> assertThat(r).startsWith("triggers/0/count must be at least 1 at column 45: "));
    }

    @Test
    void refusesMixedDialects() {
      assertThat(reason("AfterWatermark.pastEndOfWindow().withEarlyFirings(AfterCount(1))"))
          .startsWith("unknown trigger 'AfterCount' at column 51: ");
      assertThat(reason("AfterWatermark(early=AfterProcessingTime(Duration.standardMinutes(1)))"))
          .startsWith("expected a number, found 'Duration.standardMinutes(…)' at column 42: ");
    }

    @Test
    void namesLineAndColumnInAnExpressionOfSeveralLines() {
      assertThat(
              reason("Repeatedly.forever(\n  AfterPane.elementCountAtLeast(1),\n  Never.ever())"))
          .isEqualTo(
              "unexpected argument: Repeatedly.forever takes a trigger at line 3, column 3: "
                  + "  Never.ever())\n"
                  + " ".repeat(79)
                  + "^");
    }

    @Test
    void refusesATriggerThatIsNeitherObjectNorString() {
      assertThat(PipelineParserTest.violations(PipelineParserTest.with("trigger", "42")))
          .containsExactly(
              new Violation("/trigger", "must be an object or a string holding a Beam expression"));
    }
  }

  @Nested
  class CanonicalJava {
    @Test
    void writesTheCanonicalExpression() {
      assertThat(BeamJava.trigger(new Repeatedly(count(3))))
          .isEqualTo("Repeatedly.forever(AfterPane.elementCountAtLeast(3))");
      assertThat(BeamJava.trigger(EARLY_AND_LATE))
          .isEqualTo(
              "AfterWatermark.pastEndOfWindow().withEarlyFirings(AfterProcessingTime"
                  + ".pastFirstElementInPane().plusDelayOf(Duration.standardMinutes(1)))"
                  + ".withLateFirings(AfterPane.elementCountAtLeast(1))");
      assertThat(BeamJava.trigger(new OrFinally(new Trigger.Default(), new Never())))
          .isEqualTo("DefaultTrigger.of().orFinally(Never.ever())");
      assertThat(BeamJava.trigger(new AfterAll(List.of(count(2), new Never()))))
          .isEqualTo("AfterAll.of(AfterPane.elementCountAtLeast(2), Never.ever())");
      // The varargs overload takes only OnceTriggers; the List one takes any trigger.
      assertThat(BeamJava.trigger(new AfterFirst(List.of(new Repeatedly(count(2)), new Never()))))
          .isEqualTo(
              "AfterFirst.of(Arrays.asList(Repeatedly.forever(AfterPane.elementCountAtLeast(2)),"
                  + " Never.ever()))");
      assertThat(BeamJava.trigger(new AfterProcessingTime(250)))
          .isEqualTo(
              "AfterProcessingTime.pastFirstElementInPane().plusDelayOf(Duration.millis(250))");
      assertThat(BeamJava.trigger(new AfterProcessingTime(7_200_000)))
          .isEqualTo(
              "AfterProcessingTime.pastFirstElementInPane()"
                  + ".plusDelayOf(Duration.standardHours(2))");
      assertThat(
              BeamJava.window(
                  new WindowDefinition.Calendar(
                      CalendarWindows.Unit.WEEKS,
                      1,
                      BERLIN,
                      LocalDate.of(2026, 1, 1),
                      DayOfWeek.MONDAY)))
          .isEqualTo(
              "CalendarWindows.weeks(1, DateTimeConstants.MONDAY).withStartingDay(2026, 1, 1)"
                  + ".withTimeZone(DateTimeZone.forID(\"Europe/Berlin\"))");
    }

    @Test
    void readsBackEveryTreeItWrites() {
      Random random = new Random(20_260_101L);
      for (int i = 0; i < 500; i++) {
        Trigger tree = RandomDefinitions.trigger(random, 3, random.nextBoolean());
        String java = BeamJava.trigger(tree);
        assertThat(trigger(java)).as(java).isEqualTo(tree);
      }
    }

    @Test
    void readsBackEveryWindowItWrites() {
      Random random = new Random(20_260_102L);
      for (int i = 0; i < 300; i++) {
        WindowDefinition w = RandomDefinitions.window(random);
        String java = BeamJava.window(w);
        assertThat(window(java)).as(java).isEqualTo(w);
      }
    }
  }
}
