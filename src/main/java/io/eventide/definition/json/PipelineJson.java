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
   * Beam Java expression ({@code windowExpression}, {@code triggerExpression}), and the {@code
   * warnings} at the end.
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
          .put("mode", WireNames.of(k.mode()));
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
    ObjectNode json = JSON.objectNode().put("type", w.type());
    if (w instanceof WindowDefinition.Fixed f) {
      json.put("size", f.size().toString()).put("offset", f.offset().toString());
    } else if (w instanceof WindowDefinition.Sliding s) {
      json.put("size", s.size().toString())
          .put("period", s.period().toString())
          .put("offset", s.offset().toString());
    } else if (w instanceof WindowDefinition.Session s) {
      json.put("gap", s.gap().toString());
    } else if (w instanceof WindowDefinition.Calendar c) {
      json.put("unit", c.unit().name().toLowerCase(Locale.ROOT))
          .put("multiple", c.multiple())
          .put("timeZone", c.timeZone().getId())
          .put("startDate", c.startDate().toString());
      if (c.weekStart() != null) {
        json.put("weekStart", c.weekStart().name());
      }
    }
    return json;
  }

  /** A trigger tree in the form {@link TriggerParser} reads, with afterAny written afterFirst. */
  private static ObjectNode trigger(Trigger t) {
    ObjectNode json = JSON.objectNode();
    if (t instanceof Trigger.Default) {
      json.put("type", "default");
    } else if (t instanceof Trigger.AfterWatermark w) {
      json.put("type", "afterWatermark");
      if (w.early() != null) {
        json.set("early", trigger(w.early()));
      }
      if (w.late() != null) {
        json.set("late", trigger(w.late()));
      }
    } else if (t instanceof Trigger.AfterProcessingTime p) {
      json.put("type", "afterProcessingTime");
      json.put("delay", Duration.ofMillis(p.delayMillis()).toString());
    } else if (t instanceof Trigger.AfterCount c) {
      json.put("type", "afterCount").put("count", c.count());
    } else if (t instanceof Trigger.Repeatedly r) {
      json.put("type", "repeatedly").set("trigger", trigger(r.trigger()));
    } else if (t instanceof Trigger.AfterEach e) {
      json.put("type", "afterEach").set("triggers", triggers(e.triggers()));
    } else if (t instanceof Trigger.AfterFirst f) {
      json.put("type", "afterFirst").set("triggers", triggers(f.triggers()));
    } else if (t instanceof Trigger.AfterAll a) {
      json.put("type", "afterAll").set("triggers", triggers(a.triggers()));
    } else if (t instanceof Trigger.OrFinally o) {
      json.put("type", "orFinally");
      json.set("trigger", trigger(o.trigger()));
      json.set("until", trigger(o.until()));
    } else {
      json.put("type", "never");
    }
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
        .put("idleAdvance", w.idleAdvance());
  }
}
