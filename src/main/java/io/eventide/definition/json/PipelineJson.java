package io.eventide.definition.json;

import io.eventide.definition.AggregateDefinition;
import io.eventide.definition.AggregateInput;
import io.eventide.definition.EventPointers;
import io.eventide.definition.NamedAggregate;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.WatermarkPolicy;
import io.eventide.definition.WindowDefinition;
import io.eventide.definition.beam.BeamJava;
import io.eventide.definition.kafka.KafkaSinkDefinition;
import io.eventide.definition.kafka.KafkaSourceDefinition;
import io.eventide.engine.Trigger;
import io.eventide.engine.aggregate.AggregateSpec;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Writes a normalised definition back to JSON, every default spelled out. */
public final class PipelineJson {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private PipelineJson() {}

  /**
   * The definition as the API returns it: the window and trigger each followed by its canonical
   * Beam Java expression ({@code windowExpression}, {@code triggerExpression}), the windowing
   * settings by the whole chain ({@code windowingExpression}), and the {@code warnings} at the end.
   */
  public static ObjectNode withWarnings(PipelineDefinition d) {
    ObjectNode json = write(d, true);
    ArrayNode warnings = json.putArray("warnings");
    d.warnings().forEach(warnings::add);
    return json;
  }

  /** The definition alone, in the form {@link PipelineParser} reads back into the same one. */
  public static ObjectNode write(PipelineDefinition d) {
    return write(d, false);
  }

  private static ObjectNode write(PipelineDefinition d, boolean expressions) {
    ObjectNode json = JSON.objectNode();
    json.put("name", d.name());
    json.set("window", window(d.window()));
    if (expressions) {
      json.put("windowExpression", BeamJava.window(d.window()));
    }
    json.set("trigger", trigger(d.trigger()));
    if (expressions) {
      json.put("triggerExpression", BeamJava.trigger(d.trigger()));
    }
    json.put("accumulation", WireNames.of(d.accumulation()));
    json.put("allowedLateness", d.allowedLateness().toString());
    json.put("timestampCombiner", WireNames.of(d.timestampCombiner()));
    json.put("closingBehavior", WireNames.of(d.closingBehavior()));
    json.put("onTimeBehavior", WireNames.of(d.onTimeBehavior()));
    if (expressions) {
      json.put("windowingExpression", BeamJava.windowing(d));
    }
    if (d.aggregate() != null) {
      json.set("aggregate", aggregate(d.aggregate()));
    } else {
      ObjectNode named = json.putObject("aggregates");
      d.aggregates().forEach(a -> named.set(a.name(), namedAggregate(a)));
    }
    if (d.filter() != null) {
      json.put("filter", d.filter().text());
    }
    json.set("event", event(d.event()));
    json.set("watermark", watermark(d.watermark()));
    // Only pipelines that use Kafka mention it, so that the common answer stays short.
    if (d.sinks().kafka() != null) {
      KafkaSinkDefinition k = d.sinks().kafka();
      json.putObject("sinks")
          .putObject("kafka")
          .put("topic", k.topic())
          .put("mode", WireNames.of(k.mode()))
          .put("finals", k.finals());
    }
    if (d.source().kafka() != null) {
      KafkaSourceDefinition k = d.source().kafka();
      json.putObject("source").putObject("kafka").put("topic", k.topic()).put("group", k.group());
    }
    if (d.stream() != null) {
      json.put("stream", d.stream());
    }
    return json;
  }

  private static ObjectNode window(WindowDefinition w) {
    return w.accept(WINDOWS);
  }

  private static final WindowDefinition.Visitor<ObjectNode> WINDOWS =
      new WindowDefinition.Visitor<>() {
        @Override
        public ObjectNode fixed(WindowDefinition.Fixed f) {
          return typed("fixed")
              .put("size", f.size().toString())
              .put("offset", f.offset().toString());
        }

        @Override
        public ObjectNode sliding(WindowDefinition.Sliding s) {
          return typed("sliding")
              .put("size", s.size().toString())
              .put("period", s.period().toString())
              .put("offset", s.offset().toString());
        }

        @Override
        public ObjectNode session(WindowDefinition.Session s) {
          return typed("session").put("gap", s.gap().toString());
        }

        @Override
        public ObjectNode global(WindowDefinition.Global g) {
          return typed("global");
        }

        @Override
        public ObjectNode calendar(WindowDefinition.Calendar c) {
          ObjectNode json =
              typed("calendar")
                  .put("unit", c.unit().name().toLowerCase(Locale.ROOT))
                  .put("multiple", c.multiple())
                  .put("timeZone", c.timeZone().getId())
                  .put("startDate", c.startDate().toString());
          if (c.weekStart() != null) {
            json.put("weekStart", c.weekStart().name());
          }
          return json;
        }
      };

  /** A trigger tree in the form {@link TriggerParser} reads, with afterAny written afterFirst. */
  private static ObjectNode trigger(Trigger t) {
    return t.accept(TRIGGERS);
  }

  private static final Trigger.Visitor<ObjectNode> TRIGGERS =
      new Trigger.Visitor<>() {
        @Override
        public ObjectNode defaultTrigger(Trigger.Default t) {
          return typed("default");
        }

        @Override
        public ObjectNode afterWatermark(Trigger.AfterWatermark w) {
          ObjectNode json = typed("afterWatermark");
          if (w.early() != null) {
            json.set("early", trigger(w.early()));
          }
          if (w.late() != null) {
            json.set("late", trigger(w.late()));
          }
          return json;
        }

        @Override
        public ObjectNode afterProcessingTime(Trigger.AfterProcessingTime p) {
          return typed("afterProcessingTime")
              .put("delay", Duration.ofMillis(p.delayMillis()).toString());
        }

        @Override
        public ObjectNode afterCount(Trigger.AfterCount c) {
          return typed("afterCount").put("count", c.count());
        }

        @Override
        public ObjectNode repeatedly(Trigger.Repeatedly r) {
          ObjectNode json = typed("repeatedly");
          json.set("trigger", trigger(r.trigger()));
          return json;
        }

        @Override
        public ObjectNode afterEach(Trigger.AfterEach e) {
          return withTriggers("afterEach", e.triggers());
        }

        @Override
        public ObjectNode afterFirst(Trigger.AfterFirst f) {
          return withTriggers("afterFirst", f.triggers());
        }

        @Override
        public ObjectNode afterAll(Trigger.AfterAll a) {
          return withTriggers("afterAll", a.triggers());
        }

        @Override
        public ObjectNode orFinally(Trigger.OrFinally o) {
          ObjectNode json = typed("orFinally");
          json.set("trigger", trigger(o.trigger()));
          json.set("until", trigger(o.until()));
          return json;
        }

        @Override
        public ObjectNode never(Trigger.Never t) {
          return typed("never");
        }
      };

  private static ObjectNode typed(String type) {
    return JSON.objectNode().put("type", type);
  }

  private static ObjectNode withTriggers(String type, List<Trigger> triggers) {
    ObjectNode json = typed(type);
    json.set("triggers", triggers(triggers));
    return json;
  }

  private static ArrayNode triggers(List<Trigger> triggers) {
    ArrayNode array = JSON.arrayNode();
    triggers.forEach(t -> array.add(trigger(t)));
    return array;
  }

  private static ObjectNode aggregate(AggregateDefinition a) {
    AggregateSpec spec = a.spec();
    ObjectNode json = JSON.objectNode().put("type", spec.type());
    if (!spec.fractions().isEmpty()) {
      ArrayNode fractions = json.putArray("fractions");
      spec.fractions().forEach(fractions::add);
    }
    if (spec.sketchSize() > 0) {
      json.put("sketchSize", spec.sketchSize());
    }
    if (a.volume() != null) {
      json.put("volume", a.volume());
    }
    return json;
  }

  private static ObjectNode namedAggregate(NamedAggregate a) {
    ObjectNode json = aggregate(a.aggregate());
    if (a.input() instanceof AggregateInput.Field f) {
      json.put("field", f.pointer());
    } else if (a.input() instanceof AggregateInput.Computed c) {
      json.put("expr", c.expr().text());
    }
    return json;
  }

  private static ObjectNode event(EventPointers e) {
    ObjectNode json = JSON.objectNode();
    if (e.key().size() == 1) {
      json.put("key", e.key().get(0));
    } else {
      ArrayNode key = json.putArray("key");
      e.key().forEach(key::add);
    }
    return json.put("timestamp", e.timestamp())
        .put("value", e.value())
        .put("id", e.id())
        .put("source", e.source());
  }

  private static ObjectNode watermark(WatermarkPolicy w) {
    return JSON.objectNode()
        .put("maxOutOfOrderness", w.maxOutOfOrderness().toString())
        .put("idleTimeout", w.idleTimeout().toString())
        .put("maxFutureSkew", w.maxFutureSkew().toString())
        .put("idleAdvance", w.idleAdvance())
        .put("onFutureSkew", WireNames.of(w.onFutureSkew()));
  }
}
