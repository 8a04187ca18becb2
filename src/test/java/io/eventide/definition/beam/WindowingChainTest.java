package io.eventide.definition.beam;

import static io.eventide.definition.json.PipelineParserTest.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.PipelineJson;
import io.eventide.definition.json.PipelineParserTest;
import io.eventide.definition.json.Violation;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/** The {@code windowing} field: a whole Beam windowing chain in Java, Python or Go. */
class WindowingChainTest {
  private static final String AGGREGATE = "'aggregate':{'type':'sum'}";

  private static final String FIXED_MINUTE = "'window':{'type':'fixed','size':'PT1M'}";

  /** The docs' early and late trigger, as the JSON form writes it. */
  private static final String EARLY_AND_LATE =
      "'trigger':{'type':'afterWatermark','early':{'type':'afterProcessingTime','delay':'PT1M'},"
          + "'late':{'type':'afterCount','count':1}}";

  static PipelineDefinition chain(String chain) {
    ObjectNode body = (ObjectNode) json("{" + AGGREGATE + "}");
    body.put("windowing", chain);
    return PipelineParserTest.parse(body);
  }

  /** The definition of the JSON fields {@code fields} beside the aggregate. */
  static PipelineDefinition tree(String fields) {
    return PipelineParserTest.parse("{" + fields + "," + AGGREGATE + "}");
  }

  static List<Violation> violations(String chain) {
    return catchThrowableOfType(InvalidInputException.class, () -> chain(chain)).violations();
  }

  /** The reason of the one violation of {@code chain}, which must be at /windowing. */
  static String reason(String chain) {
    List<Violation> found = violations(chain);
    assertThat(found).singleElement().extracting(Violation::path).isEqualTo("/windowing");
    return found.get(0).reason();
  }

  @ParameterizedTest
  @MethodSource({"java", "python", "go"})
  void readsTheChainsAsTheirJsonFields(String chain, String fields) {
    assertThat(chain(chain)).isEqualTo(tree(fields));
  }

  static Stream<Arguments> java() {
    return Stream.of(
        Arguments.of("Window.into(FixedWindows.of(Duration.standardMinutes(1)))", FIXED_MINUTE),
        Arguments.of(
            "Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardMinutes(1)));",
            FIXED_MINUTE),
        Arguments.of(
            "Window.<KV<java.lang.String, java.util.List<Map<String, ? extends Number>>>>into("
                + "FixedWindows.of(org.joda.time.Duration.standardSeconds(60)))",
            FIXED_MINUTE),
        Arguments.of(
            "Window.<byte[][]>into(FixedWindows.of(Duration.millis(60000)))", FIXED_MINUTE),
        Arguments.of(
            "Window.<String>into(FixedWindows.of(Duration.standardMinutes(1)))\n"
                + "    .triggering(\n"
                + "        AfterWatermark.pastEndOfWindow()\n"
                + "            .withEarlyFirings(AfterProcessingTime.pastFirstElementInPane()\n"
                + "                .plusDelayOf(Duration.standardMinutes(1)))\n"
                + "            .withLateFirings(AfterPane.elementCountAtLeast(1)))\n"
                + "    .withAllowedLateness(Duration.standardDays(1))\n"
                + "    .accumulatingFiredPanes();",
            FIXED_MINUTE
                + ","
                + EARLY_AND_LATE
                + ",'allowedLateness':'P1D','accumulation':'accumulating'"),
        Arguments.of(
            "Window.into(Sessions.withGapDuration(Duration.standardHours(1)))"
                + ".triggering(Repeatedly.forever(AfterPane.elementCountAtLeast(2)))"
                + ".withAllowedLateness(Duration.ZERO, Window.ClosingBehavior.FIRE_ALWAYS)"
                + ".discardingFiredPanes()"
                + ".withTimestampCombiner(TimestampCombiner.EARLIEST)"
                + ".withOnTimeBehavior(Window.OnTimeBehavior.FIRE_IF_NON_EMPTY)",
            "'window':{'type':'session','gap':'PT1H'},"
                + "'trigger':{'type':'repeatedly','trigger':{'type':'afterCount','count':2}},"
                + "'closingBehavior':'fire_always','timestampCombiner':'earliest',"
                + "'onTimeBehavior':'fire_if_non_empty'"),
        Arguments.of(
            "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                + ".withAllowedLateness(Duration.standardSeconds(30),"
                + " Window.ClosingBehavior.FIRE_IF_NON_EMPTY)"
                + ".accumulatingAndRetractingFiredPanes()"
                + ".withTimestampCombiner(TimestampCombiner.LATEST)",
            FIXED_MINUTE
                + ",'allowedLateness':'PT30S','accumulation':'retracting',"
                + "'timestampCombiner':'latest'"),
        // Beam's Java SDK asks for neither lateness nor an accumulation mode in global windows.
        Arguments.of(
            "Window.into(new GlobalWindows())"
                + ".triggering(Repeatedly.forever(AfterPane.elementCountAtLeast(10)))"
                + ".discardingFiredPanes()",
            "'window':{'type':'global'},"
                + "'trigger':{'type':'repeatedly','trigger':{'type':'afterCount','count':10}}"),
        Arguments.of(
            "Window.into(new GlobalWindows()).withAllowedLateness(Duration.standardHours(2))",
            "'window':{'type':'global'},'allowedLateness':'PT2H'"),
        // A setting given twice keeps the last, as Beam's builder does.
        Arguments.of(
            "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                + ".triggering(Never.ever()).withAllowedLateness(Duration.ZERO)"
                + ".accumulatingFiredPanes().triggering(DefaultTrigger.of())"
                + ".discardingFiredPanes()",
            FIXED_MINUTE));
  }

  static Stream<Arguments> python() {
    return Stream.of(
        Arguments.of(
            "beam.WindowInto(window.FixedWindows(60))",
            FIXED_MINUTE + ",'closingBehavior':'fire_always'"),
        Arguments.of(
            "WindowInto(beam.window.FixedWindows(Duration(seconds=60)))",
            FIXED_MINUTE + ",'closingBehavior':'fire_always'"),
        Arguments.of(
            "beam.WindowInto(\n"
                + "    window.FixedWindows(60),\n"
                + "    trigger=trigger.AfterWatermark(\n"
                + "        early=trigger.AfterProcessingTime(60), late=trigger.AfterCount(1)),\n"
                + "    accumulation_mode=trigger.AccumulationMode.ACCUMULATING,\n"
                + "    timestamp_combiner=window.TimestampCombiner.OUTPUT_AT_EARLIEST,\n"
                + "    allowed_lateness=Duration(seconds=600))",
            FIXED_MINUTE
                + ","
                + EARLY_AND_LATE
                + ",'accumulation':'accumulating','timestampCombiner':'earliest',"
                + "'allowedLateness':'PT10M','closingBehavior':'fire_always'"),
        Arguments.of(
            "WindowInto(SlidingWindows(3600, 300), Repeatedly(AfterCount(5)),"
                + " AccumulationMode.DISCARDING, TimestampCombiner.OUTPUT_AT_LATEST, 10 * 60)",
            "'window':{'type':'sliding','size':'PT1H','period':'PT5M'},"
                + "'trigger':{'type':'repeatedly','trigger':{'type':'afterCount','count':5}},"
                + "'timestampCombiner':'latest','allowedLateness':'PT10M',"
                + "'closingBehavior':'fire_always'"),
        Arguments.of(
            "beam.WindowInto(Sessions(600), trigger=DefaultTrigger(),"
                + " timestamp_combiner=TimestampCombiner.OUTPUT_AT_EOW,"
                + " allowed_lateness=Duration(micros=1500000))",
            "'window':{'type':'session','gap':'PT10M'},'allowedLateness':'PT1.5S',"
                + "'closingBehavior':'fire_always'"),
        Arguments.of(
            "beam.WindowInto(GlobalWindows(), trigger=Repeatedly(AfterProcessingTime(30)),"
                + " accumulation_mode=AccumulationMode.DISCARDING)",
            "'window':{'type':'global'},'trigger':{'type':'repeatedly','trigger':"
                + "{'type':'afterProcessingTime','delay':'PT30S'}},'closingBehavior':'fire_always'"));
  }

  static Stream<Arguments> go() {
    String goDefaults = "'onTimeBehavior':'fire_if_non_empty'";
    return Stream.of(
        Arguments.of(
            "beam.WindowInto(s, window.NewFixedWindows(time.Minute), col)",
            FIXED_MINUTE + "," + goDefaults),
        Arguments.of(
            "beam.WindowInto(s, window.NewFixedWindows(60*time.Second), words,\n"
                + "\tbeam.Trigger(trigger.AfterEndOfWindow().\n"
                + "\t\tEarlyFiring(trigger.AfterProcessingTime().PlusDelay(time.Minute)).\n"
                + "\t\tLateFiring(trigger.Repeat(trigger.AfterCount(1)))),\n"
                + "\tbeam.AllowedLateness(10*time.Minute),\n"
                + "\tbeam.PanesAccumulate(),\n"
                + ");",
            FIXED_MINUTE
                + ","
                + EARLY_AND_LATE
                + ",'allowedLateness':'PT10M','accumulation':'accumulating',"
                + goDefaults),
        // Options apply in turn: the last one of a kind stands, as in beam.TryWindowInto.
        Arguments.of(
            "beam.WindowInto(scope, window.NewSessions(time.Hour), col,"
                + " beam.PanesAccumulate(), beam.Trigger(trigger.Always()), beam.PanesDiscard())",
            "'window':{'type':'session','gap':'PT1H'},"
                + "'trigger':{'type':'repeatedly','trigger':{'type':'afterCount','count':1}},"
                + goDefaults),
        Arguments.of(
            "beam.WindowInto(s, window.NewGlobalWindows(), col,"
                + " beam.AllowedLateness(time.Duration(1500)*time.Millisecond))",
            "'window':{'type':'global'},'allowedLateness':'PT1.5S'," + goDefaults));
  }

  @Nested
  class BeamsRules {
    @Test
    void refusesATriggerWithoutLatenessAsBeamsJavaSdkDoes() {
      String chain =
          "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
              + ".triggering(AfterPane.elementCountAtLeast(1))";
      String head =
          "Beam's Java SDK requires .withAllowedLateness(…) with .triggering(…) unless the"
              + " windows are GlobalWindows; .withAllowedLateness(Duration.ZERO) keeps no late"
              + " data at column 59: ";
      assertThat(reason(chain))
          .isEqualTo(head + chain + "\n" + " ".repeat(head.length() + 58) + "^");
    }

    @Test
    void refusesManyPanesWithoutAnAccumulationModeAsBeamsJavaSdkDoes() {
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".triggering(AfterPane.elementCountAtLeast(1))"
                      + ".withAllowedLateness(Duration.ZERO)"))
          .startsWith(
              "Beam's Java SDK requires .discardingFiredPanes() or .accumulatingFiredPanes()"
                  + " with a trigger, as more than one pane may fire at column 59: ");
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".withAllowedLateness(Duration.standardMinutes(1))"))
          .startsWith(
              "Beam's Java SDK requires .discardingFiredPanes() or .accumulatingFiredPanes()"
                  + " with an allowed lateness above zero, as more than one pane may fire"
                  + " at column 59: ");
      // The last call of a kind is the one that stands, and the one pointed at.
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".triggering(Never.ever()).triggering(Never.ever())"))
          .contains(" at column 84: ");
    }

    @Test
    void refusesATriggerWithoutAnAccumulationModeAsBeamsPythonSdkDoes() {
      assertThat(reason("beam.WindowInto(window.FixedWindows(60), trigger=AfterCount(1))"))
          .startsWith(
              "Beam's Python SDK requires accumulation_mode= with a trigger other than"
                  + " DefaultTrigger() at column 50: ");
    }

    @Test
    void asksNothingOfGoChainsAsBeamsGoSdkAsksNothing() {
      assertThat(
              chain(
                  "beam.WindowInto(s, window.NewFixedWindows(time.Minute), col,"
                      + " beam.Trigger(trigger.AfterCount(1)))"))
          .isEqualTo(
              tree(
                  FIXED_MINUTE
                      + ",'trigger':{'type':'afterCount','count':1},"
                      + "'onTimeBehavior':'fire_if_non_empty'"));
    }
  }

  @Nested
  class Errors {
    @Test
    void pointsAtTheColumnOfWhatTheJsonRulesRefuse() {
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1))"
                      + ".withOffset(Duration.standardMinutes(1)))"))
          .startsWith("window/offset must be less than size (PT1M) at column 69: ");
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".withAllowedLateness(Duration.standardMinutes(-1))"))
          .startsWith("allowedLateness must not be negative at column 79: ");
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".triggering(AfterWatermark.pastEndOfWindow().withEarlyFirings("
                      + "Repeatedly.forever(AfterPane.elementCountAtLeast(1))))"
                      + ".withAllowedLateness(Duration.ZERO).discardingFiredPanes()"))
          .startsWith("trigger/early must be a single-fire trigger")
          .contains("; got repeatedly at column 120: ");
      assertThat(reason("beam.WindowInto(window.FixedWindows(60), allowed_lateness=Duration(-1))"))
          .startsWith("allowedLateness must not be negative at column 59: ");
    }

    @Test
    void namesLineAndColumnInAChainOfSeveralLines() {
      assertThat(
              reason(
                  "Window.<String>into(FixedWindows.of(Duration.standardMinutes(1)))\n"
                      + "    .triggering(AfterPane.elementCountAtLeast(0))\n"
                      + "    .withAllowedLateness(Duration.ZERO)\n"
                      + "    .discardingFiredPanes()"))
          .isEqualTo(
              "trigger/count must be at least 1 at line 2, column 47: "
                  + "    .triggering(AfterPane.elementCountAtLeast(0))\n"
                  + " ".repeat(101)
                  + "^");
    }

    @Test
    void listsTheMethodsAndConstantsThatFit() {
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".withAllowedLateness(Duration.ZERO).discardingFirePanes()"))
          .startsWith("unknown method 'discardingFirePanes' at column 94: ")
          .endsWith(
              "\nknown here: triggering, withAllowedLateness, discardingFiredPanes,"
                  + " accumulatingFiredPanes, accumulatingAndRetractingFiredPanes,"
                  + " withTimestampCombiner, withOnTimeBehavior");
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".withTimestampCombiner(TimestampCombiner.OUTPUT_AT_EOW)"))
          .startsWith(
              "expected one of TimestampCombiner.EARLIEST, TimestampCombiner.END_OF_WINDOW,"
                  + " TimestampCombiner.LATEST, found 'TimestampCombiner.OUTPUT_AT_EOW'"
                  + " at column 81: ");
      assertThat(
              reason(
                  "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                      + ".withAllowedLateness(Duration.ZERO, ClosingBehavior.FIRE_ALWAYS)"))
          .startsWith(
              "expected one of Window.ClosingBehavior.FIRE_ALWAYS,"
                  + " Window.ClosingBehavior.FIRE_IF_NON_EMPTY, found"
                  + " 'ClosingBehavior.FIRE_ALWAYS' at column 94: ");
      assertThat(
              reason(
                  "beam.WindowInto(window.FixedWindows(60), trigger=AfterCount(1),"
                      + " accumulation_mode=AccumulationMode.RETRACTING)"))
          .startsWith(
              "expected one of AccumulationMode.ACCUMULATING, AccumulationMode.DISCARDING"
                  + " (each optionally prefixed trigger.), found 'AccumulationMode.RETRACTING'"
                  + " at column 83: ");
      assertThat(
              reason(
                  "WindowInto(FixedWindows(60),"
                      + " timestamp_combiner=TimestampCombiner.OUTPUT_AT_EARLIEST_TRANSFORMED)"))
          .startsWith(
              "expected one of TimestampCombiner.OUTPUT_AT_EARLIEST,"
                  + " TimestampCombiner.OUTPUT_AT_EOW, TimestampCombiner.OUTPUT_AT_LATEST"
                  + " (each optionally prefixed window. or beam.window.), found");
      assertThat(reason("WindowInto(FixedWindows(60), accumulation=AccumulationMode.DISCARDING)"))
          .startsWith(
              "unknown argument 'accumulation': WindowInto takes a window,"
                  + " trigger= a trigger (optional), accumulation_mode= AccumulationMode.…"
                  + " (optional), timestamp_combiner= TimestampCombiner.… (optional),"
                  + " allowed_lateness= seconds (optional) at column 30: ");
      assertThat(
              reason(
                  "beam.WindowInto(s, window.NewFixedWindows(time.Minute), col,"
                      + " beam.PanesDiscarding())"))
          .startsWith("unknown option 'beam.PanesDiscarding' at column 62: ")
          .endsWith(
              "\nknown in Go: beam.AllowedLateness, beam.PanesAccumulate, beam.PanesDiscard,"
                  + " beam.Trigger");
      assertThat(
              reason("beam.WindowInto(s.Scope(\"w\"), window.NewFixedWindows(time.Minute), col)"))
          .startsWith("expected the scope, a name such as s, found 's.Scope(…)' at column 17: ");
    }

    /**
     * A chain keeps to one SDK; when no SDK reads all of it, the error shown is the one of the SDK
     * that read furthest, not the one that merely failed furthest to the right.
     */
    @Test
    void keepsToOneSdk() {
      assertThat(reason("Window.into(FixedWindows(60))"))
          .startsWith("unknown window 'FixedWindows' at column 13: ");
      assertThat(reason("beam.WindowInto(FixedWindows.of(Duration.standardMinutes(1)))"))
          .startsWith("unknown window 'FixedWindows.of' at column 17: ");
      // Python reads beam.WindowInto too, and refuses Go's seven arguments at the last three.
      assertThat(
              reason(
                  "beam.WindowInto(s, window.NewFixedWindows(time.Mnute), col,"
                      + " beam.Trigger(trigger.Always()), beam.PanesDiscard(),"
                      + " beam.AllowedLateness(time.Minute), beam.PanesAccumulate())"))
          .startsWith("unknown unit 'time.Mnute' at column 43: ");
      assertThat(reason("beam.WindowInto(window.FixedWindows(60), allowed_lateness=time.Minute)"))
          .startsWith("expected a number, found 'time.Minute' at column 59: ");
    }

    @Test
    void takesTypeArgumentsOnlyInJava() {
      assertThat(reason("beam.<T>WindowInto(window.FixedWindows(60))"))
          .startsWith("unexpected '<': only Java writes type arguments at column 6: ");
      assertThat(reason("Window.<KV<String, Long>into(new GlobalWindows())"))
          .startsWith("unexpected 'into', expected '>' at column 25: ");
      assertThat(reason("Window.<>into(new GlobalWindows())"))
          .startsWith("unexpected '>', expected a type at column 9: ");
      assertThat(reason("Window.<String>into"))
          .startsWith("unexpected end of expression, expected '(' at column 20: ");
    }

    @Test
    void saysWhichFieldTakesWhatWasGiven() {
      assertThat(reason("Window.configure().triggering(Never.ever())"))
          .startsWith("unknown windowing chain 'Window.configure' at column 1: ")
          .endsWith(
              "\nknown in Java: Window.into"
                  + "\nknown in Python: WindowInto, each optionally prefixed beam."
                  + "\nknown in Go: beam.WindowInto");
      assertThat(reason("FixedWindows.of(Duration.standardMinutes(1))"))
          .startsWith(
              "unknown windowing chain 'FixedWindows.of': a window goes in the field 'window'"
                  + " at column 1: ");
      assertThat(
              PipelineParserTest.violations(
                  PipelineParserTest.with(
                      "window",
                      "'Window.<KV<String, Long>>into(FixedWindows.of(Duration.standardMinutes(1)))'")))
          .singleElement()
          .satisfies(
              v -> {
                assertThat(v.path()).isEqualTo("/window");
                assertThat(v.reason())
                    .startsWith(
                        "unknown window 'Window.into': a windowing chain goes in the field"
                            + " 'windowing' at column 1: ");
              });
    }
  }

  @Nested
  class Fields {
    @Test
    void refusesEveryFieldTheChainStandsFor() {
      ObjectNode body =
          (ObjectNode)
              json(
                  "{'window':{'type':'global'},'trigger':{'type':'never'},"
                      + "'accumulation':'accumulating','allowedLateness':'PT1M',"
                      + "'timestampCombiner':'latest','closingBehavior':'fire_always',"
                      + "'onTimeBehavior':'fire_always',"
                      + AGGREGATE
                      + "}");
      body.put("windowing", "Window.into(new GlobalWindows())");
      String reason = "must not be given with 'windowing': the windowing chain stands for it";
      assertThat(PipelineParserTest.violations(body))
          .containsExactly(
              new Violation("/window", reason),
              new Violation("/trigger", reason),
              new Violation("/accumulation", reason),
              new Violation("/allowedLateness", reason),
              new Violation("/timestampCombiner", reason),
              new Violation("/closingBehavior", reason),
              new Violation("/onTimeBehavior", reason));
    }

    @Test
    void takesJsonNullForTheFieldsItStandsFor() {
      ObjectNode body = (ObjectNode) json("{'window':null,'trigger':null," + AGGREGATE + "}");
      body.put("windowing", "Window.into(new GlobalWindows())");
      assertThat(PipelineParserTest.parse(body)).isEqualTo(tree("'window':{'type':'global'}"));
    }

    @Test
    void reportsTheChainsViolationsBesideTheOthers() {
      ObjectNode body = (ObjectNode) json("{'accumulation':'accumulating','aggregate':{}}");
      body.put("windowing", "Window.into(new GlobalWindows()");
      assertThat(PipelineParserTest.violations(body))
          .extracting(Violation::path)
          .containsExactly("/accumulation", "/windowing", "/aggregate/type");
    }

    @Test
    void refusesAChainThatIsNoString() {
      assertThat(
              PipelineParserTest.violations(
                  json("{'windowing':{'window':{'type':'global'}}," + AGGREGATE + "}")))
          .containsExactly(
              new Violation("/windowing", "must be a string holding a Beam windowing chain"));
    }
  }

  @Nested
  class CanonicalJava {
    @Test
    void writesTheSettingsThatDifferAndThoseBeamRequires() {
      assertThat(BeamJava.windowing(tree(FIXED_MINUTE)))
          .isEqualTo("Window.into(FixedWindows.of(Duration.standardMinutes(1)))");
      // Beam's Java SDK asks for the lateness and the mode with a trigger.
      assertThat(
              BeamJava.windowing(tree(FIXED_MINUTE + ",'trigger':{'type':'afterCount','count':3}")))
          .isEqualTo(
              "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                  + ".triggering(AfterPane.elementCountAtLeast(3))"
                  + ".withAllowedLateness(Duration.ZERO).discardingFiredPanes()");
      // ...but not the lateness in global windows.
      assertThat(
              BeamJava.windowing(
                  tree("'window':{'type':'global'},'trigger':{'type':'afterCount','count':3}")))
          .isEqualTo(
              "Window.into(new GlobalWindows())"
                  + ".triggering(AfterPane.elementCountAtLeast(3)).discardingFiredPanes()");
      // Late data asks for the mode too, except in global windows.
      assertThat(BeamJava.windowing(tree(FIXED_MINUTE + ",'allowedLateness':'PT10M'")))
          .isEqualTo(
              "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                  + ".withAllowedLateness(Duration.standardMinutes(10)).discardingFiredPanes()");
      assertThat(BeamJava.windowing(tree("'window':{'type':'global'},'allowedLateness':'PT10M'")))
          .isEqualTo(
              "Window.into(new GlobalWindows()).withAllowedLateness(Duration.standardMinutes(10))");
      assertThat(
              BeamJava.windowing(
                  tree(
                      FIXED_MINUTE
                          + ",'closingBehavior':'fire_always','accumulation':'retracting',"
                          + "'timestampCombiner':'latest','onTimeBehavior':'fire_if_non_empty'")))
          .isEqualTo(
              "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                  + ".withAllowedLateness(Duration.ZERO, Window.ClosingBehavior.FIRE_ALWAYS)"
                  + ".accumulatingAndRetractingFiredPanes()"
                  + ".withTimestampCombiner(TimestampCombiner.LATEST)"
                  + ".withOnTimeBehavior(Window.OnTimeBehavior.FIRE_IF_NON_EMPTY)");
    }

    @Test
    void writesEveryDefinitionBackWithItsChain() {
      assertThat(
              PipelineJson.withWarnings(chain("beam.WindowInto(window.FixedWindows(60))"))
                  .get("windowingExpression")
                  .stringValue())
          .isEqualTo(
              "Window.into(FixedWindows.of(Duration.standardMinutes(1)))"
                  + ".withAllowedLateness(Duration.ZERO, Window.ClosingBehavior.FIRE_ALWAYS)");
    }

    /**
     * Reading the chain written for any definition gives that definition back, and writing it again
     * gives the same chain.
     */
    @Test
    void readsBackEveryChainItWrites() {
      Random random = new Random(20_260_301L);
      for (int i = 0; i < 500; i++) {
        PipelineDefinition d = RandomDefinitions.windowing(random, tree(FIXED_MINUTE));
        String java = BeamJava.windowing(d);
        PipelineDefinition read = chain(java);
        assertThat(read).as(java).isEqualTo(d);
        assertThat(PipelineJson.withWarnings(read).get("windowingExpression").stringValue())
            .isEqualTo(java);
      }
    }
  }
}
