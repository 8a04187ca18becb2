package io.eventide.core.render;

import io.eventide.definition.KeyFields;
import io.eventide.engine.Pane;
import io.eventide.engine.Window;
import java.io.CharArrayWriter;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders one pipeline's pane records ({@link PaneRecords}) as text, each written once into a
 * buffer and a generator kept from pane to pane, so that a pane costs little more garbage than its
 * text. Not thread-safe: one per shard.
 */
public final class PaneRecordWriter {
  /**
   * The settings {@code JsonNode.toString()} writes with, so that the text is what a tree of the
   * record would print; less the space between root values, as every pane is a root value of the
   * one generator. Like {@code toString()}, it writes characters to a {@link java.io.Writer}: a
   * UTF-8 generator would escape a lone surrogate that the text has always carried as it is.
   */
  private static final ObjectWriter SETTINGS =
      JsonMapper.shared().writer().withRootValueSeparator((String) null);

  /** A rare huge pane should not keep its buffer for the life of the shard. */
  private static final int KEPT_CAPACITY = 64 * 1024;

  private final SerializedString pipeline;
  private final KeyFields keys;
  private final TimestampTexts times = new TimestampTexts();
  private CharArrayWriter text;
  private JsonGenerator json;

  public PaneRecordWriter(String pipeline, KeyFields keys) {
    this.pipeline = new SerializedString(pipeline);
    this.keys = keys;
    startAfresh();
  }

  public String write(Pane pane) {
    try {
      PaneRecords.write(json, pipeline, keys, times, pane);
      json.flush();
    } catch (RuntimeException e) {
      // The generator is left inside the record it could not finish.
      startAfresh();
      throw e;
    }
    String record = text.toString();
    if (record.length() > KEPT_CAPACITY) {
      startAfresh();
    } else {
      text.reset();
    }
    return record;
  }

  /** The record of {@code absorbed}, a session window of {@code key} merged into {@code into}. */
  public String writeMerge(String key, Window absorbed, Window into) {
    try {
      PaneRecords.merge(json, pipeline, keys, times, key, absorbed, into);
      json.flush();
    } catch (RuntimeException e) {
      startAfresh();
      throw e;
    }
    String record = text.toString();
    text.reset();
    return record;
  }

  private void startAfresh() {
    text = new CharArrayWriter(1024);
    json = SETTINGS.createGenerator(text);
  }
}
