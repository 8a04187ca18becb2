package io.eventide.definition.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.eventide.definition.NamedAggregate;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.WindowDefinition;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.CalendarWindows;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import io.eventide.engine.WindowFn;
import io.eventide.engine.WindowingStrategy;
import io.eventide.engine.aggregate.AggregateSpec;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

public class PipelineParserTest {
  private static final String MINIMAL =
      "{'window':{'type':'fixed','size':'PT1M'},'aggregate':{'type':'sum'}}";

  /** Test bodies use single quotes for readability. */
  public static JsonNode json(String text) {
    return JsonMapper.shared().readTree(text.replace('\'', '"'));
  }

  public static PipelineDefinition parse(String text) {
    return parse(json(text));
  }

  public static PipelineDefinition parse(JsonNode body) {
    return PipelineParser.parseNamed(body, "p", KafkaNamespace.DEFAULT, PipelineLimits.DEFAULT);
  }

  /**
   * Parses a definition with every field set, checks that writing it gives the same JSON and that
   * the written JSON parses to the same definition, and returns it.
   */
  static PipelineDefinition readsBack(String full) {
    PipelineDefinition d = parse(full);
    // Compared as text: the tree holds counts as longs where the parser read ints.
    assertThat(PipelineJson.write(d).toString()).isEqualTo(json(full).toString());
    assertThat(parse(PipelineJson.write(d))).isEqualTo(d);
    return d;
  }

  public static List<Violation> violations(String text) {
    return violations(json(text));
  }

  public static List<Violation> violations(JsonNode body) {
    return catchThrowableOfType(InvalidInputException.class, () -> parse(body)).violations();
  }

  /** The minimal definition with fields set: name, value, name, value... */
  public static JsonNode with(String... fieldsAndValues) {
    ObjectNode body = (ObjectNode) json(MINIMAL);
    for (int i = 0; i < fieldsAndValues.length; i += 2) {
      body.set(fieldsAndValues[i], json(fieldsAndValues[i + 1]));
    }
    return body;
  }

  static Trigger trigger(String trigger) {
    return parse(with("trigger", trigger)).trigger();
  }

  static List<Violation> triggerViolations(String trigger) {
    return violations(with("trigger", trigger));
  }

  @Nested
  class Normalisation {
    @Test
    void fillsEveryDefault() {
      PipelineDefinition d = parse(MINIMAL);
      assertThat(PipelineJson.withWarnings(d))
          .isEqualTo(
              json(
                  """
                  {'name':'p',
                   'window':{'type':'fixed','size':'PT1M','offset':'PT0S'},
                   'windowExpression':'FixedWindows.of(Duration.standardMinutes(1))',
                   'trigger':{'type':'default'},
                   'triggerExpression':'DefaultTrigger.of()',
                   'accumulation':'discarding',
                   'allowedLateness':'PT0S',
                   'timestampCombiner':'end_of_window',
                   'closingBehavior':'fire_if_non_empty',
                   'onTimeBehavior':'fire_always',
                   'windowingExpression':'Window.into(FixedWindows.of(Duration.standardMinutes(1)))',
                   'aggregate':{'type':'sum'},
                   'event':{'key':'/key','timestamp':'/timestamp','value':'/value','id':'/id',
                            'source':'/source'},
                   'watermark':{'maxOutOfOrderness':'PT0S','idleTimeout':'PT1M',
                                'maxFutureSkew':'PT10M','idleAdvance':false,
                                'onFutureSkew':'reject'},
                   'warnings':['the watermark moves only when events or watermark posts arrive:
                  when traffic stops, the last windows do not fire and nothing becomes final; set
                  watermark.idleAdvance to let it follow the wall clock once every source is idle,
                  or POST /pipelines/{name}/watermark when a producer is done']}
                  """
                      .replaceAll("\\n *", " ")));
    }

    @Test
    void writesDurationsInIso() {
      PipelineDefinition d =
          parse(
              "{'window':{'type':'sliding','size':'1h','period':'5m','offset':'250ms'},"
                  + "'trigger':{'type':'afterProcessingTime','delay':'10s'},"
                  + "'allowedLateness':'1d','aggregate':{'type':'count'},"
                  + "'watermark':{'maxOutOfOrderness':'5s'}}");
      JsonNode written = PipelineJson.write(d);
      assertThat(written.at("/window"))
          .isEqualTo(json("{'type':'sliding','size':'PT1H','period':'PT5M','offset':'PT0.25S'}"));
      assertThat(written.at("/trigger/delay").stringValue()).isEqualTo("PT10S");
      assertThat(written.at("/allowedLateness").stringValue()).isEqualTo("PT24H");
      assertThat(written.at("/watermark/maxOutOfOrderness").stringValue()).isEqualTo("PT5S");
    }

    @Test
    void readsBackWhatItWrites() {
      String full =
          "{'name':'p','window':{'type':'session','gap':'PT10M'},"
              + "'trigger':{'type':'afterWatermark','early':{'type':'afterProcessingTime',"
              + "'delay':'PT1M'},'late':{'type':'afterCount','count':1}},"
              + "'accumulation':'accumulating','allowedLateness':'PT10M',"
              + "'timestampCombiner':'earliest','closingBehavior':'fire_always',"
              + "'onTimeBehavior':'fire_if_non_empty',"
              + "'aggregate':{'type':'quantiles','fractions':[0.5,0.99],'sketchSize':200},"
              + "'event':{'key':'/user','timestamp':'/at','value':'/ms','id':'/eid','source':'/s'},"
              + "'watermark':{'maxOutOfOrderness':'PT5S','idleTimeout':'PT2M',"
              + "'maxFutureSkew':'PT1M','idleAdvance':false,'onFutureSkew':'clamp'}}";
      readsBack(full);
    }

    @Test
    void readsBackNamedAggregatesCompositeKeysAndExpressions() {
      String full =
          "{'name':'p','window':{'type':'fixed','size':'PT1M','offset':'PT0S'},"
              + "'trigger':{'type':'default'},'accumulation':'discarding',"
              + "'allowedLateness':'PT0S','timestampCombiner':'end_of_window',"
              + "'closingBehavior':'fire_if_non_empty','onTimeBehavior':'fire_always',"
              + "'aggregates':{'errors':{'type':'count'},"
              + "'kb':{'type':'sum','expr':'event.bytes / 1024.0'},"
              + "'p99':{'type':'quantiles','fractions':[0.99],'field':'/ms'}},"
              + "'filter':'event.status >= 500',"
              + "'event':{'key':['/region','/endpoint'],'timestamp':'/timestamp',"
              + "'value':'/value','id':'/id','source':'/source'},"
              + "'watermark':{'maxOutOfOrderness':'PT0S','idleTimeout':'PT1M',"
              + "'maxFutureSkew':'PT10M','idleAdvance':false,'onFutureSkew':'reject'}}";
      PipelineDefinition d = readsBack(full);
      assertThat(d.aggregates())
          .extracting(NamedAggregate::name)
          .containsExactly("errors", "kb", "p99");
      assertThat(d.aggregates().get(0).input()).isNull();
      assertThat(d.event().keyFields().composite()).isTrue();
    }

    @Test
    void boundsAggregatesKeyFieldsAndExpressionsByTheLimits() {
      PipelineLimits tight = new PipelineLimits(2, 2, 20, 4, 10, 1_000_000);
      JsonNode body =
          json(
              "{'window':{'type':'fixed','size':'1m'},"
                  + "'aggregates':{'a':{'type':'count'},'b':{'type':'count'},'c':{'type':'count'}},"
                  + "'event':{'key':['/x','/y','/z']},"
                  + "'filter':'event.status >= 500.0 && event.ok'}");
      List<Violation> found =
          catchThrowableOfType(
                  InvalidInputException.class,
                  () -> PipelineParser.parseNamed(body, "p", KafkaNamespace.DEFAULT, tight))
              .violations();
      assertThat(found)
          .extracting(Violation::path)
          .containsExactlyInAnyOrder("/aggregates", "/event/key", "/filter");
      assertThat(found)
          .extracting(Violation::reason)
          .anySatisfy(r -> assertThat(r).contains("eventide.pipelines.max-aggregates"))
          .anySatisfy(r -> assertThat(r).contains("eventide.pipelines.max-key-fields"))
          .anySatisfy(r -> assertThat(r).contains("eventide.pipelines.max-expression-length"));
    }

    @Test
    void treatsAfterAnyAsAfterFirst() {
      Trigger t =
          trigger(
              "{'type':'afterAny','triggers':[{'type':'afterCount','count':2},"
                  + "{'type':'afterProcessingTime','delay':'1m'}]}");
      assertThat(t)
          .isEqualTo(
              new Trigger.AfterFirst(
                  List.of(new Trigger.AfterCount(2), new Trigger.AfterProcessingTime(60_000))));
      assertThat(
              PipelineJson.write(
                      parse(
                          with(
                              "trigger",
                              "{'type':'afterAny','triggers':"
                                  + "[{'type':'never'},{'type':'afterCount','count':1}]}")))
                  .at("/trigger/type")
                  .stringValue())
          .isEqualTo("afterFirst");
    }

    @Test
    void readsEveryTriggerType() {
      assertThat(
              trigger(
                  "{'type':'repeatedly','trigger':{'type':'afterEach','triggers':["
                      + "{'type':'afterAll','triggers':[{'type':'afterCount','count':3},"
                      + "{'type':'afterWatermark'}]},"
                      + "{'type':'orFinally','trigger':{'type':'default'},'until':{'type':'never'}}"
                      + "]}}"))
          .isEqualTo(
              new Trigger.Repeatedly(
                  new Trigger.AfterEach(
                      List.of(
                          new Trigger.AfterAll(
                              List.of(
                                  new Trigger.AfterCount(3),
                                  new Trigger.AfterWatermark(null, null))),
                          new Trigger.OrFinally(new Trigger.Default(), new Trigger.Never())))));
    }

    @Test
    void delayOfAfterProcessingTimeDefaultsToZero() {
      assertThat(trigger("{'type':'afterProcessingTime'}"))
          .isEqualTo(new Trigger.AfterProcessingTime(0));
    }

    @Test
    void jsonNullMeansDefault() {
      assertThat(parse(with("trigger", "null")).trigger()).isEqualTo(new Trigger.Default());
    }

    @Test
    void convertsToTheEngineStrategy() {
      PipelineDefinition d =
          parse(
              "{'window':{'type':'fixed','size':'PT1M','offset':'PT10S'},"
                  + "'trigger':{'type':'repeatedly','trigger':{'type':'afterCount','count':3}},"
                  + "'accumulation':'accumulating','allowedLateness':'PT2H',"
                  + "'timestampCombiner':'latest','closingBehavior':'fire_always',"
                  + "'onTimeBehavior':'fire_if_non_empty','aggregate':{'type':'collect'}}");
      assertThat(d.windowingStrategy())
          .isEqualTo(
              new WindowingStrategy(
                  new WindowFn.Fixed(60_000, 10_000),
                  new Trigger.Repeatedly(new Trigger.AfterCount(3)),
                  AccumulationMode.ACCUMULATING,
                  7_200_000,
                  TimestampCombiner.LATEST,
                  ClosingBehavior.FIRE_ALWAYS,
                  OnTimeBehavior.FIRE_IF_NON_EMPTY));
      assertThat(d.aggregate().spec()).isEqualTo(AggregateSpec.of("collect"));
    }

    @Test
    void convertsEveryWindowType() {
      assertThat(
              parse(with("window", "{'type':'sliding','size':'1h','period':'5m'}"))
                  .window()
                  .windowFn())
          .isEqualTo(new WindowFn.Sliding(3_600_000, 300_000, 0));
      assertThat(parse(with("window", "{'type':'session','gap':'10m'}")).window().windowFn())
          .isEqualTo(new WindowFn.Session(600_000));
      assertThat(parse(with("window", "{'type':'global'}")).window().windowFn())
          .isEqualTo(new WindowFn.Global());
    }

    @Test
    void takesTheNameFromTheUrlOrTheBody() {
      assertThat(parse(MINIMAL).name()).isEqualTo("p");
      assertThat(parse(with("name", "'p'")).name()).isEqualTo("p");
    }
  }

  @Nested
  class Rejections {
    @Test
    void reportsEveryViolationAtOnceWithItsPath() {
      List<Violation> found =
          violations(
              "{'name':'other','window':{'type':'sliding','size':'PT0S','period':'P2D',"
                  + "'colour':'red'},"
                  + "'trigger':{'type':'afterWatermark','early':{'type':'afterCount','count':0}},"
                  + "'accumulation':'sometimes','allowedLateness':'-PT1S',"
                  + "'timestampCombiner':3,'aggregate':{'type':'median'},"
                  + "'event':{'key':'key'},'watermark':{'idleTimeout':'0s'},'extra':true}");
      assertThat(found)
          .containsExactlyInAnyOrder(
              new Violation("/name", "must equal the name in the URL ('p')"),
              new Violation("/window/size", "must be positive"),
              new Violation("/window/colour", "unknown field"),
              new Violation("/trigger/early/count", "must be at least 1"),
              new Violation(
                  "/accumulation",
                  "must be one of discarding, accumulating, retracting (got 'sometimes')"),
              new Violation("/allowedLateness", "must not be negative"),
              new Violation("/timestampCombiner", "must be a string"),
              new Violation(
                  "/aggregate/type",
                  "must be one of count, sum, min, max, mean, collect, latest, distinctCount,"
                      + " quantiles, ohlc (got 'median')"),
              new Violation(
                  "/event/key", "must be a JSON pointer such as /payload/amount (got 'key')"),
              new Violation("/watermark/idleTimeout", "must be positive"),
              new Violation("/extra", "unknown field"));
    }

    @Test
    void requiresWindowAndAggregate() {
      assertThat(violations("{}"))
          .containsExactly(
              new Violation("/window", "is required"),
              new Violation("/aggregate", "is required (or named aggregates in 'aggregates')"));
    }

    @Test
    void refusesABodyThatIsNoObject() {
      assertThat(violations("[1]")).containsExactly(new Violation("", "must be an object"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"''", "'-a'", "'a b'", "'ä'", "'a/b'"})
    void refusesBadNames(String name) {
      Violations v = new Violations();
      assertThat(PipelineParser.parse(with("name", name), "", v, "x", PipelineLimits.DEFAULT))
          .isNull();
      assertThat(v.size()).isPositive();
    }

    @Test
    void refusesANameLongerThan128Characters() {
      Violations v = new Violations();
      PipelineParser.parse(
          with("name", "'" + "a".repeat(129) + "'"), "", v, "x", PipelineLimits.DEFAULT);
      assertThat(v.size()).isEqualTo(1);
      PipelineParser.parse(
          with("name", "'" + "a".repeat(128) + "'"), "", v, "x", PipelineLimits.DEFAULT);
      assertThat(v.size()).isEqualTo(1);
    }

    @Test
    void checksWindowFields() {
      assertThat(violations(with("window", "{'type':'fixed'}")))
          .containsExactly(new Violation("/window/size", "is required"));
      assertThat(violations(with("window", "{'type':'fixed','size':'1m','offset':'1m'}")))
          .containsExactly(new Violation("/window/offset", "must be less than size (PT1M)"));
      assertThat(violations(with("window", "{'type':'fixed','size':60000}")))
          .containsExactly(new Violation("/window/size", "must be a string"));
      assertThat(violations(with("window", "{'type':'sliding','size':'1m','period':'2m'}")))
          .containsExactly(new Violation("/window/period", "must not exceed size (PT1M)"));
      assertThat(
              violations(
                  with("window", "{'type':'sliding','size':'1h','period':'5m','offset':'5m'}")))
          .containsExactly(new Violation("/window/offset", "must be less than period (PT5M)"));
      assertThat(violations(with("window", "{'type':'sliding','size':'1d','period':'1s'}")))
          .containsExactly(
              new Violation(
                  "/window/period",
                  "must be at least size / 1000: each element would fall into 86400 windows"));
      assertThat(violations(with("window", "{'type':'session','gap':'0s'}")))
          .containsExactly(new Violation("/window/gap", "must be positive"));
      assertThat(violations(with("window", "{'type':'global','size':'1m'}")))
          .containsExactly(new Violation("/window/size", "unknown field"));
      assertThat(violations(with("window", "{'type':'tumbling','size':'1m'}")))
          .containsExactly(
              new Violation(
                  "/window/type",
                  "must be one of fixed, sliding, session, global, calendar (got 'tumbling')"));
      assertThat(violations(with("window", "60")))
          .containsExactly(
              new Violation("/window", "must be an object or a string holding a Beam expression"));
      assertThat(violations(with("window", "'fixed'")))
          .singleElement()
          .extracting(Violation::reason)
          .asString()
          .startsWith("unknown window 'fixed' at column 1: fixed");
      assertThat(violations(with("window", "{'size':'1m'}")))
          .containsExactly(new Violation("/window/type", "is required"));
    }

    @Test
    void checksDurations() {
      assertThat(violations(with("allowedLateness", "'ten minutes'")))
          .containsExactly(
              new Violation(
                  "/allowedLateness",
                  "must be an ISO-8601 duration (PT10S, P1D) or a short one (250ms, 10s, 5m, 2h,"
                      + " 1d) (got 'ten minutes')"));
    }

    @Test
    void checksAggregates() {
      assertThat(parse(with("aggregate", "{'type':'quantiles'}")).aggregate().spec())
          .isEqualTo(AggregateSpec.of("quantiles"));
      assertThat(violations(with("aggregate", "{'type':'quantiles','fractions':[0.5,1.5,'x']}")))
          .containsExactly(
              new Violation("/aggregate/fractions/1", "must be a number between 0 and 1"),
              new Violation("/aggregate/fractions/2", "must be a number between 0 and 1"));
      assertThat(violations(with("aggregate", "{'type':'quantiles','fractions':[]}")))
          .containsExactly(
              new Violation(
                  "/aggregate/fractions", "must be a non-empty array of numbers between 0 and 1"));
      assertThat(violations(with("aggregate", "{'type':'distinctCount','sketchSize':30}")))
          .containsExactly(new Violation("/aggregate/sketchSize", "must be between 4 and 21"));
      assertThat(violations(with("aggregate", "{'type':'sum','fractions':[0.5]}")))
          .containsExactly(new Violation("/aggregate/fractions", "unknown field"));
      assertThat(violations(with("aggregate", "{'type':'ohlc','volume':'qty'}")))
          .containsExactly(
              new Violation(
                  "/aggregate/volume",
                  "must be a JSON pointer such as /payload/amount (got 'qty')"));
      assertThat(parse(with("aggregate", "{'type':'ohlc','volume':'/qty'}")).aggregate().volume())
          .isEqualTo("/qty");
    }

    @Test
    void escapesOddFieldNamesInPaths() {
      assertThat(violations(with("a/b~c", "1")))
          .containsExactly(new Violation("/a~1b~0c", "unknown field"));
    }
  }

  @Nested
  class Triggers {
    @Test
    void checksTriggerFields() {
      assertThat(triggerViolations("{'type':'afterCount'}"))
          .containsExactly(new Violation("/trigger/count", "is required"));
      assertThat(triggerViolations("{'type':'afterCount','count':'3'}"))
          .containsExactly(new Violation("/trigger/count", "must be an integer"));
      assertThat(triggerViolations("{'type':'afterCount','count':2.5}"))
          .containsExactly(new Violation("/trigger/count", "must be an integer"));
      assertThat(triggerViolations("{'type':'afterCount','count':9223372036854775808}"))
          .containsExactly(
              new Violation(
                  "/trigger/count",
                  "must be at most 9223372036854775807 (got 9223372036854775808)"));
      assertThat(triggerViolations("{'type':'afterCount','count':-99999999999999999999}"))
          .containsExactly(new Violation("/trigger/count", "must be at least 1"));
      assertThat(triggerViolations("{'type':'afterProcessingTime','delay':'-1s'}"))
          .containsExactly(new Violation("/trigger/delay", "must not be negative"));
      assertThat(triggerViolations("{'type':'repeatedly'}"))
          .containsExactly(new Violation("/trigger/trigger", "is required"));
      assertThat(triggerViolations("{'type':'never','count':1}"))
          .containsExactly(new Violation("/trigger/count", "unknown field"));
      assertThat(triggerViolations("{'type':'orFinally'}"))
          .containsExactly(
              new Violation("/trigger/trigger", "is required"),
              new Violation("/trigger/until", "is required"));
    }

    @Test
    void listsTheAllowedTypesForAnUnknownOne() {
      assertThat(triggerViolations("{'type':'afterSomething'}"))
          .containsExactly(
              new Violation(
                  "/trigger/type",
                  "must be one of default, afterWatermark, afterProcessingTime, afterCount,"
                      + " repeatedly, afterEach, afterFirst, afterAny, afterAll, orFinally, never"
                      + " (got 'afterSomething')"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"afterEach", "afterFirst", "afterAny", "afterAll"})
    void requiresTwoSubTriggers(String type) {
      assertThat(triggerViolations("{'type':'" + type + "','triggers':[{'type':'never'}]}"))
          .containsExactly(
              new Violation("/trigger/triggers", "must hold at least 2 triggers (has 1)"));
      assertThat(triggerViolations("{'type':'" + type + "','triggers':{'type':'never'}}"))
          .containsExactly(new Violation("/trigger/triggers", "must be an array of triggers"));
    }

    @Test
    void reportsViolationsDeepInTheTree() {
      assertThat(
              triggerViolations(
                  "{'type':'repeatedly','trigger':{'type':'afterEach','triggers':["
                      + "{'type':'afterCount','count':0},{'type':'never','x':1},{'type':'nope'}]}}"))
          .containsExactly(
              new Violation("/trigger/trigger/triggers/0/count", "must be at least 1"),
              new Violation("/trigger/trigger/triggers/1/x", "unknown field"),
              new Violation(
                  "/trigger/trigger/triggers/2/type",
                  "must be one of default, afterWatermark, afterProcessingTime, afterCount,"
                      + " repeatedly, afterEach, afterFirst, afterAny, afterAll, orFinally, never"
                      + " (got 'nope')"));
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "{'type':'afterWatermark','early':{'type':'repeatedly','trigger':{'type':'never'}}}",
          "{'type':'afterWatermark','late':{'type':'default'}}",
          "{'type':'afterWatermark','early':{'type':'afterWatermark','late':{'type':'never'}}}",
          "{'type':'orFinally','trigger':{'type':'default'},'until':{'type':'afterEach',"
              + "'triggers':[{'type':'never'},{'type':'never'}]}}",
          "{'type':'afterWatermark','late':{'type':'afterFirst','triggers':[{'type':'never'},"
              + "{'type':'afterWatermark','early':{'type':'repeatedly','trigger':{'type':'never'}}}"
              + "]}}"
        })
    void refusesRepeatingTriggersWhereBeamTakesSingleFireOnes(String trigger) {
      List<Violation> found = triggerViolations(trigger);
      assertThat(found).hasSize(1);
      assertThat(found.get(0).reason()).startsWith("must be a single-fire trigger");
    }

    @Test
    void namesTheOffendingSubTrigger() {
      assertThat(
              triggerViolations(
                  "{'type':'afterWatermark','early':{'type':'repeatedly','trigger':"
                      + "{'type':'afterCount','count':0}}}"))
          .extracting(Violation::path)
          .containsExactly("/trigger/early/trigger/count", "/trigger/early");
    }

    @ParameterizedTest
    @ValueSource(strings = {"afterFirst", "afterAny", "afterAll"})
    void acceptsAnySubTriggerOfAfterFirstAndAfterAllAsBeamsListOverloadsDo(String type) {
      Trigger t =
          trigger(
              "{'type':'"
                  + type
                  + "','triggers':[{'type':'repeatedly','trigger':{'type':'afterCount',"
                  + "'count':2}},{'type':'default'},{'type':'afterWatermark','late':"
                  + "{'type':'afterCount','count':1}},{'type':'afterEach','triggers':"
                  + "[{'type':'never'},{'type':'never'}]},{'type':'orFinally','trigger':"
                  + "{'type':'default'},'until':{'type':'never'}}]}");
      assertThat(t.children()).noneMatch(Trigger::isOnce);
      // Still single-fire itself, as Beam types it: it may stand where Beam asks for one.
      assertThat(t.isOnce()).isTrue();
      assertThat(
              trigger(
                  "{'type':'afterWatermark','early':{'type':'"
                      + type
                      + "','triggers':[{'type':'default'},{'type':'never'}]}}"))
          .isInstanceOf(Trigger.AfterWatermark.class);
    }

    @Test
    void acceptsSingleFireTriggersWhereBeamTakesThem() {
      assertThat(
              trigger(
                  "{'type':'orFinally','trigger':{'type':'repeatedly','trigger':"
                      + "{'type':'afterCount','count':1}},'until':{'type':'afterFirst','triggers':"
                      + "[{'type':'afterCount','count':5},{'type':'afterWatermark'}]}}"))
          .isInstanceOf(Trigger.OrFinally.class);
    }

    @Test
    void refusesOrFinallyWhereBeamTakesSingleFireTriggersOnly() {
      assertThat(
              triggerViolations(
                  "{'type':'orFinally','trigger':{'type':'afterCount','count':1},"
                      + "'until':{'type':'orFinally','trigger':{'type':'afterCount','count':5},"
                      + "'until':{'type':'afterWatermark'}}}"))
          .extracting(Violation::path)
          .containsExactly("/trigger/until");
    }

    @Test
    void refusesTreesOfMoreThan64Nodes() {
      StringBuilder t = new StringBuilder("{'type':'never'}");
      for (int i = 0; i < 64; i++) {
        t.insert(0, "{'type':'repeatedly','trigger':").append('}');
      }
      assertThat(triggerViolations(t.toString()))
          .containsExactly(new Violation("/trigger", "must have at most 64 nodes (has 65)"));
      String sixtyFour = t.substring("{'type':'repeatedly','trigger':".length(), t.length() - 1);
      assertThat(trigger(sixtyFour)).isInstanceOf(Trigger.Repeatedly.class);
    }
  }

  @Nested
  class CalendarWindowDefinitions {
    static WindowDefinition calendar(String window) {
      return parse(with("window", window)).window();
    }

    static List<Violation> calendarViolations(String window) {
      return violations(with("window", window));
    }

    @Test
    void readsTheIssuesExample() {
      PipelineDefinition d =
          parse(
              with(
                  "window",
                  "{'type':'calendar','unit':'days','multiple':1,'timeZone':'Europe/Berlin',"
                      + "'startDate':'2026-01-01'}"));
      ZoneId berlin = ZoneId.of("Europe/Berlin");
      LocalDate start = LocalDate.of(2026, 1, 1);
      assertThat(d.window())
          .isEqualTo(
              new WindowDefinition.Calendar(CalendarWindows.Unit.DAYS, 1, berlin, start, null));
      assertThat(d.window().windowFn())
          .isEqualTo(new CalendarWindows(CalendarWindows.Unit.DAYS, 1, berlin, start, null));
      assertThat(PipelineJson.withWarnings(d).at("/window"))
          .isEqualTo(
              json(
                  "{'type':'calendar','unit':'days','multiple':1,'timeZone':'Europe/Berlin',"
                      + "'startDate':'2026-01-01'}"));
      assertThat(PipelineJson.withWarnings(d).at("/windowExpression").stringValue())
          .isEqualTo(
              "CalendarWindows.days(1).withStartingDay(2026, 1, 1)"
                  + ".withTimeZone(DateTimeZone.forID(\"Europe/Berlin\"))");
    }

    @Test
    void fillsBeamsDefaultsAndAWeekStartForWeeks() {
      WindowDefinition weeks = calendar("{'type':'calendar','unit':'weeks'}");
      assertThat(weeks)
          .isEqualTo(
              new WindowDefinition.Calendar(
                  CalendarWindows.Unit.WEEKS,
                  1,
                  ZoneId.of("UTC"),
                  LocalDate.of(1970, 1, 1),
                  DayOfWeek.MONDAY));
      assertThat(
              PipelineJson.write(parse(with("window", "{'type':'calendar','unit':'weeks'}")))
                  .at("/window"))
          .isEqualTo(
              json(
                  "{'type':'calendar','unit':'weeks','multiple':1,'timeZone':'UTC',"
                      + "'startDate':'1970-01-01','weekStart':'MONDAY'}"));
      assertThat(calendar("{'type':'calendar','unit':'weeks','multiple':2,'weekStart':'SUNDAY'}"))
          .extracting(w -> ((WindowDefinition.Calendar) w).weekStart())
          .isEqualTo(DayOfWeek.SUNDAY);
    }

    @Test
    void readsBackWhatItWrites() {
      PipelineDefinition d =
          parse(
              with(
                  "window",
                  "{'type':'calendar','unit':'months','multiple':3,'timeZone':'America/New_York',"
                      + "'startDate':'2026-01-31'}"));
      assertThat(
              PipelineParser.parseNamed(
                  PipelineJson.write(d), "p", KafkaNamespace.DEFAULT, PipelineLimits.DEFAULT))
          .isEqualTo(d);
    }

    @Test
    void checksEveryField() {
      assertThat(calendarViolations("{'type':'calendar'}"))
          .containsExactly(new Violation("/window/unit", "is required"));
      assertThat(calendarViolations("{'type':'calendar','unit':'hours'}"))
          .containsExactly(
              new Violation(
                  "/window/unit", "must be one of days, weeks, months, years (got 'hours')"));
      assertThat(calendarViolations("{'type':'calendar','unit':'days','multiple':0}"))
          .containsExactly(new Violation("/window/multiple", "must be between 1 and 36500"));
      assertThat(calendarViolations("{'type':'calendar','unit':'months','multiple':1201}"))
          .containsExactly(new Violation("/window/multiple", "must be between 1 and 1200"));
      assertThat(calendarViolations("{'type':'calendar','unit':'years','multiple':'2'}"))
          .containsExactly(new Violation("/window/multiple", "must be an integer"));
      assertThat(calendarViolations("{'type':'calendar','unit':'days','timeZone':'Mars/Olympus'}"))
          .containsExactly(
              new Violation(
                  "/window/timeZone",
                  "must be an IANA time zone id such as Europe/Berlin (got 'Mars/Olympus')"));
      assertThat(calendarViolations("{'type':'calendar','unit':'days','timeZone':'+01:00'}"))
          .extracting(Violation::path)
          .containsExactly("/window/timeZone");
      assertThat(calendarViolations("{'type':'calendar','unit':'days','startDate':'2026-02-30'}"))
          .containsExactly(
              new Violation(
                  "/window/startDate",
                  "must be an ISO-8601 date such as 2026-01-01 (got '2026-02-30')"));
      assertThat(calendarViolations("{'type':'calendar','unit':'days','startDate':'1.1.2026'}"))
          .extracting(Violation::path)
          .containsExactly("/window/startDate");
      assertThat(calendarViolations("{'type':'calendar','unit':'days','weekStart':'MONDAY'}"))
          .containsExactly(new Violation("/window/weekStart", "applies only to unit weeks"));
      assertThat(calendarViolations("{'type':'calendar','unit':'weeks','weekStart':'monday'}"))
          .containsExactly(
              new Violation(
                  "/window/weekStart",
                  "must be one of MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY, SUNDAY"
                      + " (got 'monday')"));
      assertThat(calendarViolations("{'type':'calendar','unit':'days','size':'1d'}"))
          .containsExactly(new Violation("/window/size", "unknown field"));
    }
  }

  @Nested
  class Warnings {
    static List<String> warnings(String field, String value) {
      return moving(field, value).warnings();
    }

    /**
     * A definition whose watermark follows the wall clock when idle, so that only the warning under
     * test is left.
     */
    static PipelineDefinition moving(String... fieldsAndValues) {
      ObjectNode body = (ObjectNode) with(fieldsAndValues);
      body.set("watermark", json("{'idleAdvance':true}"));
      return parse(body);
    }

    @Test
    void warnsThatAWatermarkMovedOnlyByEventsStandsStillWhenTrafficStops() {
      assertThat(parse(MINIMAL).warnings())
          .singleElement()
          .asString()
          .contains("the watermark moves only when events or watermark posts arrive")
          .contains("watermark.idleAdvance");
      assertThat(moving().warnings()).isEmpty();
      // A simulation's steps move the watermark themselves.
      assertThat(parse(MINIMAL).simulationWarnings()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "{'type':'afterCount','count':1}",
          "{'type':'afterProcessingTime','delay':'1m'}",
          "{'type':'afterFirst','triggers':[{'type':'never'},{'type':'afterCount','count':1}]}",
          "{'type':'orFinally','trigger':{'type':'default'},'until':{'type':'afterCount',"
              + "'count':9}}"
        })
    void warnsAboutTopLevelTriggersThatFinish(String trigger) {
      assertThat(warnings("trigger", trigger))
          .singleElement()
          .asString()
          .contains("Beam's Java SDK refuses this at GroupByKey")
          .contains("dropped as closed");
    }

    @Test
    void warnsAboutAfterWatermarkWithoutLateFiringsOnlyWithLateness() {
      String trigger = "{'type':'afterWatermark'}";
      assertThat(warnings("trigger", trigger)).isEmpty();
      assertThat(moving("trigger", trigger, "allowedLateness", "'1m'").warnings())
          .singleElement()
          .asString()
          .contains("GroupByKey");
      String withLate = "{'type':'afterWatermark','late':{'type':'afterCount','count':1}}";
      assertThat(moving("trigger", withLate, "allowedLateness", "'1m'").warnings()).isEmpty();
    }

    @Test
    void acceptsRepeatingTriggersSilently() {
      assertThat(
              warnings(
                  "trigger",
                  "{'type':'repeatedly','trigger':{'type':'afterCount'," + "'count':1}}"))
          .isEmpty();
      assertThat(warnings("trigger", "{'type':'never'}")).isEmpty();
    }

    @Test
    void warnsAboutAGlobalWindowThatFiresOnlyAtTheEndOfTime() {
      assertThat(warnings("window", "{'type':'global'}"))
          .singleElement()
          .asString()
          .contains("end of time");
      assertThat(
              parse(
                      "{'window':{'type':'global'},'aggregate':{'type':'sum'},'trigger':"
                          + "{'type':'afterWatermark','early':{'type':'afterCount','count':1}},"
                          + "'watermark':{'idleAdvance':true}}")
                  .warnings())
          .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"mean", "distinctCount", "quantiles", "latest", "ohlc"})
    void warnsAboutDiscardingPanesOfNonAdditiveAggregates(String type) {
      assertThat(warnings("aggregate", "{'type':'" + type + "'}"))
          .singleElement()
          .asString()
          .contains("partial");
      assertThat(
              moving("aggregate", "{'type':'" + type + "'}", "accumulation", "'accumulating'")
                  .warnings())
          .isEmpty();
    }

    @Test
    void warnsAboutLatenessBeyondAWeek() {
      assertThat(warnings("allowedLateness", "'P7D'")).isEmpty();
      assertThat(warnings("allowedLateness", "'P8D'"))
          .singleElement()
          .asString()
          .contains("kept that long");
    }

    @Test
    void returnsWarningsWithTheDefinition() {
      assertThat(PipelineJson.withWarnings(moving("allowedLateness", "'P8D'")).at("/warnings"))
          .hasSize(1);
      assertThat(
              Duration.parse(
                  PipelineJson.write(parse(MINIMAL)).at("/allowedLateness").stringValue()))
          .isZero();
    }
  }
}
