package io.eventide.core.render;

import io.eventide.definition.KeyFields;
import io.eventide.definition.json.PlainValues;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import java.util.Arrays;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON record of a pane, the one shape every consumer sees, whatever carries it (HTTP, SSE,
 * Kafka, Redis). Panes are many, so their records are written token by token, never as a tree;
 * {@link PaneRecordWriter} turns them into text.
 */
public final class PaneRecords {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  // A record's names, and below the texts that repeat, as Jackson's quoted strings: the generator
  // copies their characters instead of scanning each one for escapes, which was most of what
  // rendering a record cost.
  private static final SerializedString PIPELINE = new SerializedString("pipeline");
  private static final SerializedString KEY = new SerializedString("key");
  private static final SerializedString WINDOW = new SerializedString("window");
  private static final SerializedString VALUE = new SerializedString("value");
  private static final SerializedString PARTIAL = new SerializedString("partial");
  private static final SerializedString TIMESTAMP = new SerializedString("timestamp");
  private static final SerializedString PANE = new SerializedString("pane");
  private static final SerializedString RETRACTION = new SerializedString("retraction");
  private static final SerializedString RETRACTS = new SerializedString("retracts");
  private static final SerializedString RESTATES = new SerializedString("restates");
  private static final SerializedString INTO = new SerializedString("into");
  private static final SerializedString MERGED = new SerializedString("merged");
  private static final SerializedString FINAL = new SerializedString("final");
  private static final SerializedString FINAL_AT = new SerializedString("finalAt");
  private static final SerializedString EMITTED_AT = new SerializedString("emittedAt");
  private static final SerializedString WATERMARK = new SerializedString("watermark");
  private static final SerializedString GLOBAL = new SerializedString("global");
  private static final SerializedString START = new SerializedString("start");
  private static final SerializedString END = new SerializedString("end");
  private static final SerializedString INDEX = new SerializedString("index");
  private static final SerializedString NON_SPECULATIVE_INDEX =
      new SerializedString("nonSpeculativeIndex");
  private static final SerializedString TIMING = new SerializedString("timing");
  private static final SerializedString FIRST = new SerializedString("first");
  private static final SerializedString LAST = new SerializedString("last");

  /** By {@link Timing#ordinal()}. */
  private static final SerializedString[] TIMINGS =
      Arrays.stream(Timing.values())
          .map(t -> new SerializedString(t.name()))
          .toArray(SerializedString[]::new);

  private PaneRecords() {}

  /**
   * Writes a pane's record as one root value.
   *
   * @param keys how the pane's key is shown: a string, or an object for a composite key
   * @param times the writer's texts of times
   */
  static void write(
      JsonGenerator json,
      SerializableString pipeline,
      KeyFields keys,
      TimestampTexts times,
      Pane pane) {
    json.writeStartObject();
    json.writeName(PIPELINE);
    json.writeString(pipeline);
    json.writeName(KEY);
    keys.write(json, pane.key());
    json.writeName(WINDOW);
    writeWindow(json, times, pane.window());
    json.writeName(VALUE);
    PlainValues.write(json, pane.value());
    if (pane.partial() != null) {
      json.writeName(PARTIAL);
      PlainValues.write(json, pane.partial());
    }
    json.writeName(TIMESTAMP);
    json.writeString(times.of(pane.timestamp()));
    json.writeName(PANE);
    writeInfo(json, pane.info());
    if (pane.restates() != null) {
      json.writeName(RESTATES);
      writeRestatement(json, pane.restates());
    }
    json.writeName(RETRACTION);
    json.writeBoolean(pane.retraction());
    if (pane.retraction()) {
      json.writeName(RETRACTS);
      json.writeNumber(pane.retracts());
    }
    json.writeName(FINAL);
    json.writeBoolean(pane.isFinal());
    json.writeName(FINAL_AT);
    json.writeString(times.of(pane.finalAt()));
    json.writeName(EMITTED_AT);
    json.writeString(times.of(pane.emittedAt()));
    json.writeName(WATERMARK);
    json.writeString(times.watermark(pane.watermark()));
    json.writeEndObject();
  }

  /**
   * Writes the record of a session window absorbed into another of its key as one root value:
   * {@code {"pipeline", "key", "window", "into", "merged": true}}. The key is shown as panes show
   * it (an object for a composite key), {@code window} is the window absorbed, no window of its own
   * any more and its result no longer standing, and {@code into} the window it merged into, whose
   * pane follows. Each window absorbed by one merge has its record, all with the same {@code into}.
   */
  static void merge(
      JsonGenerator json,
      SerializableString pipeline,
      KeyFields keys,
      TimestampTexts times,
      String key,
      Window absorbed,
      Window into) {
    json.writeStartObject();
    json.writeName(PIPELINE);
    json.writeString(pipeline);
    json.writeName(KEY);
    keys.write(json, key);
    json.writeName(WINDOW);
    writeWindow(json, times, absorbed);
    json.writeName(INTO);
    writeWindow(json, times, into);
    json.writeName(MERGED);
    json.writeBoolean(true);
    json.writeEndObject();
  }

  /**
   * A pipeline's progress record: its output watermark, and through which {@code finalAt} its
   * windows are final (every window whose {@code finalAt} is at or before {@code finalThrough} has
   * been collected and never changes again), as {@code io.eventide.core.OutputProgress} holds them.
   */
  public static String progress(String pipeline, long watermark, long finalThrough) {
    return JSON.objectNode()
        .put("pipeline", pipeline)
        .put("watermark", Timestamps.formatWatermark(watermark))
        .put("finalThrough", Timestamps.formatWatermark(finalThrough))
        .toString();
  }

  /** {@code {"start": ISO, "end": ISO}}, or {@code {"global": true}} for the global window. */
  public static ObjectNode window(Window window) {
    if (window.isGlobal()) {
      return JSON.objectNode().put("global", true);
    }
    return JSON.objectNode()
        .put("start", Timestamps.format(window.start()))
        .put("end", Timestamps.format(window.end()));
  }

  /** {@link #window} for a pane record. */
  private static void writeWindow(JsonGenerator json, TimestampTexts times, Window window) {
    json.writeStartObject();
    if (window.isGlobal()) {
      json.writeName(GLOBAL);
      json.writeBoolean(true);
    } else {
      json.writeName(START);
      json.writeString(times.of(window.start()));
      json.writeName(END);
      json.writeString(times.of(window.end()));
    }
    json.writeEndObject();
  }

  /** {@code {"index": i, "value": v}}, the value only when the mode restates one. */
  private static void writeRestatement(JsonGenerator json, Pane.Restatement restates) {
    json.writeStartObject();
    json.writeName(INDEX);
    json.writeNumber(restates.index());
    if (restates.hasValue()) {
      json.writeName(VALUE);
      PlainValues.write(json, restates.value());
    }
    json.writeEndObject();
  }

  private static void writeInfo(JsonGenerator json, PaneInfo info) {
    json.writeStartObject();
    json.writeName(INDEX);
    json.writeNumber(info.index());
    json.writeName(NON_SPECULATIVE_INDEX);
    json.writeNumber(info.nonSpeculativeIndex());
    json.writeName(TIMING);
    json.writeString(TIMINGS[info.timing().ordinal()]);
    json.writeName(FIRST);
    json.writeBoolean(info.first());
    json.writeName(LAST);
    json.writeBoolean(info.last());
    json.writeEndObject();
  }
}
