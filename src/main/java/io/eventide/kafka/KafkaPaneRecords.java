package io.eventide.kafka;

import io.eventide.engine.Pane;
import io.eventide.engine.Window;
import io.eventide.pipeline.Timestamps;
import io.eventide.sink.PublishedPane;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A pane as a Kafka record: keyed by key and window, so that the default partitioner keeps every
 * pane of a window on one partition, in order, and compaction keeps a window's latest record.
 */
public final class KafkaPaneRecords {
  public static final String PANE_INDEX = "eventide-pane-index";
  public static final String TIMING = "eventide-timing";
  public static final String FINAL = "eventide-final";
  public static final String RETRACTION = "eventide-retraction";

  private KafkaPaneRecords() {}

  /** The record of a published pane, whose rendered JSON is the record's value. */
  public static ProducerRecord<String, byte[]> of(String topic, PublishedPane published) {
    Pane pane = published.pane();
    List<Header> headers =
        List.of(
            header(PANE_INDEX, Integer.toString(pane.info().index())),
            header(TIMING, pane.info().timing().name()),
            header(FINAL, Boolean.toString(pane.isFinal())),
            header(RETRACTION, Boolean.toString(pane.retraction())));
    return new ProducerRecord<>(
        topic,
        null,
        recordKey(pane.key(), pane.window()),
        published.json().getBytes(StandardCharsets.UTF_8),
        headers);
  }

  /**
   * {@code <key>@<start>/<end>} with the window's bounds as in the pane record ({@code
   * 2024-05-01T12:00:00.000Z}), or {@code <key>@global}. A key may contain '@', the bounds never
   * do: split at the last '@'.
   */
  public static String recordKey(String key, Window window) {
    if (window.isGlobal()) {
      return key + "@global";
    }
    return key + "@" + Timestamps.format(window.start()) + "/" + Timestamps.format(window.end());
  }

  private static Header header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }
}
