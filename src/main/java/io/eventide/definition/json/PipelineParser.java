package io.eventide.definition.json;

import io.eventide.definition.AggregateDefinition;
import io.eventide.definition.AggregateInput;
import io.eventide.definition.EventExpression;
import io.eventide.definition.EventExpressions;
import io.eventide.definition.EventPointers;
import io.eventide.definition.FutureSkewAction;
import io.eventide.definition.NamedAggregate;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.PipelineSinks;
import io.eventide.definition.PipelineSource;
import io.eventide.definition.Revision;
import io.eventide.definition.WatermarkPolicy;
import io.eventide.definition.WindowDefinition;
import io.eventide.definition.beam.BeamExpression;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.engine.AccumulationMode;
import io.eventide.engine.CalendarWindows;
import io.eventide.engine.ClosingBehavior;
import io.eventide.engine.OnTimeBehavior;
import io.eventide.engine.TimestampCombiner;
import io.eventide.engine.Trigger;
import io.eventide.engine.aggregate.AggregateSpec;
import io.eventide.engine.aggregate.Aggregates;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * Turns the JSON of a pipeline definition into a {@link PipelineDefinition}, filling in defaults,
 * or reports every violation it finds, each with the JSON pointer of its field.
 */
public final class PipelineParser {
  /** Beyond this many windows per element a sliding window costs more than it can be worth. */
  private static final long MAX_WINDOWS_PER_ELEMENT = 1000;

  private static final List<String> CALENDAR_UNITS = List.of("days", "weeks", "months", "years");

  /** Calendar windows may last at most a century, as durations may ({@link Durations#MAX}). */
  private static final Map<CalendarWindows.Unit, Long> MAX_MULTIPLE =
      Map.of(
          CalendarWindows.Unit.DAYS, 36_500L,
          CalendarWindows.Unit.WEEKS, 5_214L,
          CalendarWindows.Unit.MONTHS, 1_200L,
          CalendarWindows.Unit.YEARS, 100L);

  /** The fields of a definition that a windowing chain stands for. */
  private static final List<String> WINDOWING_FIELDS =
      List.of(
          "window",
          "trigger",
          "accumulation",
          "allowedLateness",
          "timestampCombiner",
          "closingBehavior",
          "onTimeBehavior");

  private static final List<String> WEEK_DAYS =
      Arrays.stream(DayOfWeek.values()).map(DayOfWeek::name).toList();

  private final Violations violations;
  private final KafkaNamespace kafka;
  private final PipelineLimits limits;

  private PipelineParser(Violations violations, KafkaNamespace kafka, PipelineLimits limits) {
    this.violations = violations;
    this.kafka = kafka;
    this.limits = limits;
  }

  /**
   * Parses the body of {@code PUT /pipelines/{name}}: a {@code name} in the body must equal the one
   * in the URL.
   *
   * @param kafka where the Kafka names a definition leaves out are taken from
   * @param limits what named aggregates, composite keys and expressions may grow to
   * @throws InvalidInputException listing every violation
   */
  public static PipelineDefinition parseNamed(
      JsonNode body, String name, KafkaNamespace kafka, PipelineLimits limits) {
    Violations violations = new Violations();
    JsonNode bodyName = body.get("name");
    if (bodyName != null && bodyName.isString() && !bodyName.stringValue().equals(name)) {
      violations.add("/name", "must equal the name in the URL ('" + name + "')");
    }
    PipelineDefinition definition = parse(body, "", violations, name, kafka, limits);
    violations.throwIfAny();
    return definition;
  }

  /**
   * Parses the definition at {@code path}, adding violations to {@code violations}, for a
   * definition that never reaches Kafka (a simulation): Kafka names left out are the default
   * namespace's.
   *
   * @param defaultName the name when the definition has none
   * @return the definition, or null when there were violations
   */
  public static PipelineDefinition parse(
      JsonNode node,
      String path,
      Violations violations,
      String defaultName,
      PipelineLimits limits) {
    return parse(node, path, violations, defaultName, KafkaNamespace.DEFAULT, limits);
  }

  private static PipelineDefinition parse(
      JsonNode node,
      String path,
      Violations violations,
      String defaultName,
      KafkaNamespace kafka,
      PipelineLimits limits) {
    int before = violations.size();
    PipelineDefinition definition =
        new PipelineParser(violations, kafka, limits).definition(node, path, defaultName);
    return violations.size() == before ? definition : null;
  }

  private PipelineDefinition definition(JsonNode node, String path, String defaultName) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    String name = f.string("name", defaultName);
    if (name != null && !PipelineDefinition.NAME.matcher(name).matches()) {
      f.violation(
          "name", "must match " + PipelineDefinition.NAME.pattern() + " (got '" + name + "')");
    } else if (PipelineDefinition.RESERVED_NAME.equals(name)) {
      f.violation(
          "name", "'" + name + "' is reserved: GET /pipelines/status is every pipeline's status");
    }
    JsonNode chainNode = f.get("windowing");
    Windowing windowing = chainNode == null ? windowing(f) : chain(f, chainNode);
    JsonNode aggregateNode = f.get("aggregate");
    JsonNode aggregatesNode = f.get("aggregates");
    if (aggregateNode == null && aggregatesNode == null) {
      f.violation("aggregate", "is required (or named aggregates in 'aggregates')");
    } else if (aggregateNode != null && aggregatesNode != null) {
      f.violation(
          "aggregates", "must not be given with 'aggregate': a pipeline has one or the other");
    }
    AggregateDefinition aggregate =
        aggregateNode == null ? null : singleAggregate(aggregateNode, f.pathOf("aggregate"));
    List<NamedAggregate> aggregates =
        aggregatesNode == null || aggregateNode != null
            ? List.of()
            : namedAggregates(aggregatesNode, f.pathOf("aggregates"));
    JsonNode filterNode = f.get("filter");
    EventExpression filter =
        filterNode == null
            ? null
            : expression(filterNode, f.pathOf("filter"), EventExpression.Result.BOOLEAN);
    JsonNode eventNode = f.get("event");
    EventPointers event =
        eventNode == null ? EventPointers.DEFAULT : event(eventNode, f.pathOf("event"));
    JsonNode watermarkNode = f.get("watermark");
    WatermarkPolicy watermark =
        watermarkNode == null
            ? WatermarkPolicy.DEFAULT
            : watermark(watermarkNode, f.pathOf("watermark"));
    KafkaDefinitionParser kafkaParser = new KafkaDefinitionParser(violations, kafka);
    JsonNode sinksNode = f.get("sinks");
    PipelineSinks sinks =
        sinksNode == null
            ? PipelineSinks.NONE
            : kafkaParser.sinks(sinksNode, f.pathOf("sinks"), name);
    JsonNode sourceNode = f.get("source");
    PipelineSource source =
        sourceNode == null
            ? PipelineSource.NONE
            : kafkaParser.source(sourceNode, f.pathOf("source"), name);
    String stream = f.string("stream", null);
    if (stream != null && !PipelineDefinition.NAME.matcher(stream).matches()) {
      f.violation(
          "stream", "must match " + PipelineDefinition.NAME.pattern() + " (got '" + stream + "')");
    }
    f.rejectUnknown();
    if (windowing == null) {
      return null;
    }
    return new PipelineDefinition(
        name,
        windowing.window(),
        windowing.trigger(),
        windowing.accumulation(),
        windowing.allowedLateness(),
        windowing.timestampCombiner(),
        windowing.closingBehavior(),
        windowing.onTimeBehavior(),
        aggregate,
        aggregates,
        filter,
        event,
        watermark,
        sinks,
        source,
        stream,
        Revision.UNSTORED);
  }

  /** How a definition windows its events: the fields a Beam windowing chain sets. */
  private record Windowing(
      WindowDefinition window,
      Trigger trigger,
      AccumulationMode accumulation,
      Duration allowedLateness,
      TimestampCombiner timestampCombiner,
      ClosingBehavior closingBehavior,
      OnTimeBehavior onTimeBehavior) {}

  /**
   * The windowing fields read from {@code f}: the definition's own, or the object a windowing chain
   * translates to. A part that cannot be read is null, with its violation.
   */
  private Windowing windowing(JsonFields f) {
    JsonNode windowNode = f.require("window");
    WindowDefinition window =
        windowNode == null
            ? null
            : treeOrExpression(
                windowNode,
                f.pathOf("window"),
                BeamExpression::window,
                (tree, at, v) -> new PipelineParser(v, kafka, limits).window(tree, at));
    JsonNode triggerNode = f.get("trigger");
    Trigger trigger =
        triggerNode == null
            ? new Trigger.Default()
            : treeOrExpression(
                triggerNode,
                f.pathOf("trigger"),
                text -> BeamExpression.trigger(text, TriggerParser::isSingleFire),
                (tree, at, v) -> new TriggerParser(v).parse(tree, at));
    return new Windowing(
        window,
        trigger,
        f.choice("accumulation", AccumulationMode.class, AccumulationMode.DISCARDING),
        f.nonNegativeDuration("allowedLateness", Duration.ZERO),
        f.choice("timestampCombiner", TimestampCombiner.class, TimestampCombiner.END_OF_WINDOW),
        f.choice("closingBehavior", ClosingBehavior.class, ClosingBehavior.FIRE_IF_NON_EMPTY),
        f.choice("onTimeBehavior", OnTimeBehavior.class, OnTimeBehavior.FIRE_ALWAYS));
  }

  /**
   * The windowing of a whole Beam windowing chain in {@code windowing}, which takes the place of
   * every field it could set: those are refused beside it, set by the chain or not.
   */
  private Windowing chain(JsonFields f, JsonNode node) {
    for (String field : WINDOWING_FIELDS) {
      if (f.get(field) != null) {
        f.violation(field, "must not be given with 'windowing': the windowing chain stands for it");
      }
    }
    String path = f.pathOf("windowing");
    if (!node.isString()) {
      violations.add(path, "must be a string holding a Beam windowing chain");
      return null;
    }
    return beamExpression(
        node.stringValue(),
        path,
        text -> BeamExpression.windowing(text, TriggerParser::isSingleFire),
        (tree, at, v) ->
            new PipelineParser(v, kafka, limits).windowing(JsonFields.of(tree, at, v)));
  }

  /** Reads the JSON tree at {@code path} into {@code violations}. */
  private interface TreeReader<T> {
    T read(JsonNode tree, String path, Violations violations);
  }

  /** Reads a window or trigger given as a JSON tree or as a Beam expression. */
  private <T> T treeOrExpression(
      JsonNode node,
      String path,
      Function<String, BeamExpression> translate,
      TreeReader<T> reader) {
    if (node.isString()) {
      return beamExpression(node.stringValue(), path, translate, reader);
    }
    if (!node.isObject()) {
      violations.add(path, "must be an object or a string holding a Beam expression");
      return null;
    }
    return reader.read(node, path, violations);
  }

  /**
   * Reads a Beam expression: it is translated to its tree and read by the reader of that tree, so
   * both forms obey the same rules; what the reader finds is reported at the expression's path,
   * pointing at the column it came from.
   */
  private <T> T beamExpression(
      String text, String path, Function<String, BeamExpression> translate, TreeReader<T> reader) {
    BeamExpression expression;
    try {
      expression = translate.apply(text);
    } catch (IllegalArgumentException e) {
      violations.add(path, e.getMessage());
      return null;
    }
    Violations found = new Violations();
    T value = reader.read(expression.tree(), path, found);
    for (Violation v : found.list()) {
      violations.add(path, expression.locate(v.path().substring(path.length()), v.reason()));
    }
    return found.size() == 0 ? value : null;
  }

  private WindowDefinition window(JsonNode node, String path) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null || f.require("type") == null) {
      return null;
    }
    String type = f.oneOf("type", WindowDefinition.TYPES, null);
    if (type == null) {
      return null;
    }
    WindowDefinition window =
        switch (type) {
          case "fixed" -> fixed(f);
          case "sliding" -> sliding(f);
          case "session" -> session(f);
          case "global" -> new WindowDefinition.Global();
          case "calendar" -> calendar(f);
          default -> throw new IllegalStateException("window type without a reader: " + type);
        };
    f.rejectUnknown();
    return window;
  }

  private WindowDefinition fixed(JsonFields f) {
    Duration size = f.positiveDuration("size", null);
    Duration offset = f.nonNegativeDuration("offset", Duration.ZERO);
    if (size == null || offset == null) {
      return null;
    }
    if (offset.compareTo(size) >= 0) {
      f.violation("offset", "must be less than size (" + size + ")");
      return null;
    }
    return new WindowDefinition.Fixed(size, offset);
  }

  private WindowDefinition sliding(JsonFields f) {
    Duration size = f.positiveDuration("size", null);
    Duration period = f.positiveDuration("period", null);
    Duration offset = f.nonNegativeDuration("offset", Duration.ZERO);
    if (size == null || period == null || offset == null) {
      return null;
    }
    boolean valid = true;
    if (period.compareTo(size) > 0) {
      f.violation("period", "must not exceed size (" + size + ")");
      valid = false;
    } else {
      long windows = (size.toMillis() + period.toMillis() - 1) / period.toMillis();
      if (windows > MAX_WINDOWS_PER_ELEMENT) {
        f.violation(
            "period",
            "must be at least size / "
                + MAX_WINDOWS_PER_ELEMENT
                + ": each element would fall into "
                + windows
                + " windows");
        valid = false;
      }
    }
    if (offset.compareTo(period) >= 0) {
      f.violation("offset", "must be less than period (" + period + ")");
      valid = false;
    }
    return valid ? new WindowDefinition.Sliding(size, period, offset) : null;
  }

  private WindowDefinition session(JsonFields f) {
    Duration gap = f.positiveDuration("gap", null);
    return gap == null ? null : new WindowDefinition.Session(gap);
  }

  private WindowDefinition calendar(JsonFields f) {
    if (f.require("unit") == null) {
      return null;
    }
    String unitName = f.oneOf("unit", CALENDAR_UNITS, null);
    CalendarWindows.Unit unit =
        unitName == null ? null : CalendarWindows.Unit.valueOf(unitName.toUpperCase(Locale.ROOT));
    Long multiple =
        f.integer("multiple", 1L, 1, unit == null ? Long.MAX_VALUE : MAX_MULTIPLE.get(unit));
    ZoneId zone = f.timeZone("timeZone", WindowDefinition.Calendar.DEFAULT_ZONE);
    LocalDate start = f.date("startDate", WindowDefinition.Calendar.DEFAULT_START);
    DayOfWeek weekStart = null;
    if (unit == CalendarWindows.Unit.WEEKS) {
      String day = f.oneOf("weekStart", WEEK_DAYS, DayOfWeek.MONDAY.name());
      weekStart = day == null ? null : DayOfWeek.valueOf(day);
    } else if (f.get("weekStart") != null) {
      f.violation("weekStart", "applies only to unit weeks");
    }
    if (unit == null
        || multiple == null
        || zone == null
        || start == null
        || (unit == CalendarWindows.Unit.WEEKS && weekStart == null)) {
      return null;
    }
    return new WindowDefinition.Calendar(unit, multiple.intValue(), zone, start, weekStart);
  }

  private AggregateDefinition singleAggregate(JsonNode node, String path) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    AggregateDefinition aggregate = aggregate(f, path);
    f.rejectUnknown();
    return aggregate;
  }

  private List<NamedAggregate> namedAggregates(JsonNode node, String path) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return List.of();
    }
    if (node.isEmpty()) {
      violations.add(path, "must name at least one aggregate");
      return List.of();
    }
    if (node.size() > limits.maxAggregates()) {
      violations.add(
          path,
          "must have at most "
              + limits.maxAggregates()
              + " aggregates (eventide.pipelines.max-aggregates; got "
              + node.size()
              + ")");
      return List.of();
    }
    List<NamedAggregate> aggregates = new ArrayList<>();
    for (String name : node.propertyNames()) {
      if (!NamedAggregate.NAME.matcher(name).matches()) {
        f.violation(
            name,
            "is not a valid aggregate name: it must match "
                + NamedAggregate.NAME.pattern()
                + " (got '"
                + name
                + "')");
        continue;
      }
      NamedAggregate aggregate = namedAggregate(name, f.get(name), f.pathOf(name));
      if (aggregate != null) {
        aggregates.add(aggregate);
      }
    }
    return aggregates;
  }

  private NamedAggregate namedAggregate(String name, JsonNode node, String path) {
    if (node == null) {
      violations.add(path, "must be an aggregate object such as {\"type\": \"count\"}");
      return null;
    }
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    int before = violations.size();
    JsonNode fieldNode = f.get("field");
    JsonNode exprNode = f.get("expr");
    AggregateDefinition aggregate = aggregate(f, path);
    AggregateInput input = null;
    if (fieldNode != null && exprNode != null) {
      f.violation("expr", "must not be given with 'field': the value comes from one or the other");
    } else if (aggregate != null && readsNoValue(aggregate)) {
      if (fieldNode != null || exprNode != null) {
        f.violation(
            fieldNode != null ? "field" : "expr", aggregate.type() + " reads no value; remove it");
      }
    } else if (exprNode != null) {
      EventExpression expr = expression(exprNode, f.pathOf("expr"), EventExpression.Result.NUMBER);
      input = expr == null ? null : new AggregateInput.Computed(expr);
    } else if (fieldNode != null) {
      String pointer = f.pointer("field", null);
      input = pointer == null ? null : new AggregateInput.Field(pointer);
    }
    f.rejectUnknown();
    return violations.size() > before ? null : new NamedAggregate(name, aggregate, input);
  }

  private static boolean readsNoValue(AggregateDefinition aggregate) {
    var built = Aggregates.create(aggregate.spec());
    return !built.needsNumber() && !built.usesPayload();
  }

  /** A CEL expression compiled to give {@code result}; null with a violation when it cannot. */
  private EventExpression expression(JsonNode node, String path, EventExpression.Result result) {
    if (!node.isString()) {
      violations.add(path, "must be a string holding a CEL expression");
      return null;
    }
    try {
      return EventExpressions.of(limits).compile(node.stringValue(), result);
    } catch (IllegalArgumentException e) {
      violations.add(path, e.getMessage());
      return null;
    }
  }

  /** The aggregate settings read from {@code f}; the caller rejects unknown fields. */
  private AggregateDefinition aggregate(JsonFields f, String path) {
    if (f.require("type") == null) {
      return null;
    }
    String type = f.oneOf("type", Aggregates.TYPES, null);
    if (type == null) {
      return null;
    }
    int before = violations.size();
    List<Double> fractions = type.equals("quantiles") ? fractions(f) : List.of();
    Long sketchSize =
        switch (type) {
          case "distinctCount" -> f.integer("sketchSize", 0L, 4, 21);
          case "quantiles" -> f.integer("sketchSize", 0L, 8, 65_535);
          default -> 0L;
        };
    String volume = type.equals("ohlc") ? f.pointer("volume", null) : null;
    if (violations.size() > before) {
      return null;
    }
    AggregateSpec spec = new AggregateSpec(type, fractions, sketchSize.intValue());
    // The aggregates have the last word on their settings: should their rules and the checks
    // above ever differ, the definition is refused here rather than failing at run time.
    try {
      Aggregates.create(spec);
    } catch (IllegalArgumentException e) {
      violations.add(path, e.getMessage());
      return null;
    }
    return new AggregateDefinition(spec, volume);
  }

  private List<Double> fractions(JsonFields f) {
    JsonNode array = f.get("fractions");
    if (array == null) {
      return List.of();
    }
    String path = f.pathOf("fractions");
    if (!array.isArray() || array.isEmpty()) {
      violations.add(path, "must be a non-empty array of numbers between 0 and 1");
      return List.of();
    }
    List<Double> fractions = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      JsonNode fraction = array.get(i);
      if (!fraction.isNumber() || fraction.doubleValue() < 0 || fraction.doubleValue() > 1) {
        violations.add(Violations.child(path, i), "must be a number between 0 and 1");
      } else {
        fractions.add(fraction.doubleValue());
      }
    }
    return fractions;
  }

  private EventPointers event(JsonNode node, String path) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    EventPointers d = EventPointers.DEFAULT;
    EventPointers event =
        new EventPointers(
            key(f),
            f.pointer("timestamp", d.timestamp()),
            f.pointer("value", d.value()),
            f.pointer("id", d.id()),
            f.pointer("source", d.source()));
    f.rejectUnknown();
    return event;
  }

  /** One pointer, or a list of them for a composite key whose fields end in distinct names. */
  private List<String> key(JsonFields f) {
    JsonNode node = f.get("key");
    if (node == null || node.isString()) {
      String pointer = f.pointer("key", EventPointers.DEFAULT.key().get(0));
      return pointer == null ? List.of("/key") : List.of(pointer);
    }
    String path = f.pathOf("key");
    if (!node.isArray() || node.isEmpty()) {
      violations.add(path, "must be a JSON pointer or a non-empty array of JSON pointers");
      return List.of("/key");
    }
    if (node.size() > limits.maxKeyFields()) {
      violations.add(
          path,
          "must have at most "
              + limits.maxKeyFields()
              + " fields (eventide.pipelines.max-key-fields; got "
              + node.size()
              + ")");
      return List.of("/key");
    }
    List<String> pointers = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      JsonNode item = node.get(i);
      String at = Violations.child(path, i);
      String pointer = item.isString() ? item.stringValue() : null;
      String reason = pointer == null ? "must be a JSON pointer" : pointerProblem(pointer);
      if (reason != null) {
        violations.add(at, reason);
        continue;
      }
      String name = JsonPointer.compile(pointer).last().getMatchingProperty();
      if (names.contains(name)) {
        violations.add(
            at,
            "ends in '"
                + name
                + "' as another key field does: a composite key's fields need distinct names");
        continue;
      }
      names.add(name);
      pointers.add(pointer);
    }
    return pointers.isEmpty() ? List.of("/key") : pointers;
  }

  private static String pointerProblem(String pointer) {
    try {
      JsonPointer compiled = JsonPointer.compile(pointer);
      return compiled.matches() ? "must point into the event, not be the whole event" : null;
    } catch (IllegalArgumentException e) {
      return "must be a JSON pointer such as /region (got '" + pointer + "')";
    }
  }

  private WatermarkPolicy watermark(JsonNode node, String path) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    WatermarkPolicy d = WatermarkPolicy.DEFAULT;
    WatermarkPolicy watermark =
        new WatermarkPolicy(
            f.nonNegativeDuration("maxOutOfOrderness", d.maxOutOfOrderness()),
            f.positiveDuration("idleTimeout", d.idleTimeout()),
            f.nonNegativeDuration("maxFutureSkew", d.maxFutureSkew()),
            f.bool("idleAdvance", d.idleAdvance()),
            f.choice("onFutureSkew", FutureSkewAction.class, d.onFutureSkew()));
    f.rejectUnknown();
    return watermark;
  }
}
