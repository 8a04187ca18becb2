package io.eventide.kafka;

import io.eventide.sink.LogEntryKind;
import io.eventide.sink.PaneEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A pane as a Kafka record: keyed by key and window, so that the default partitioner keeps every
 * pane of a window on one partition, in order, and compaction keeps a window's latest record.
 */
public final class KafkaPaneRecords {
  public static final String PANE_INDEX = "eventide-pane-index";
  public static final String TIMING = "eventide-timing";
  public static final String FINAL = "eventide-final";
  public static final String RETRACTION = "eventide-retraction";

  /** The span of the commit that logged the pane, when it was traced (W3C Trace Context). */
  public static final String TRACEPARENT = "traceparent";

  private KafkaPaneRecords() {}

  /**
   * The record of a pane log entry (a pane, a retraction or a final), whose pane record is the
   * record's value. The window, the pane index and the timing are read from that record, which
   * holds them as every other output shows them. A final is its window's last pane again, marked
   * final: same key and pane index, so that an upserting consumer replaces the record with itself.
   */
  public static ProducerRecord<String, byte[]> of(String topic, PaneEvent entry) {
    JsonNode pane = JsonMapper.shared().readTree(entry.json());
    boolean retraction = entry.kind() == LogEntryKind.RETRACTION;
    byte[] value;
    if (entry.kind() == LogEntryKind.FINAL) {
      value = JsonMapper.shared().writeValueAsBytes(((ObjectNode) pane).put("final", true));
    } else {
      value = entry.json().getBytes(StandardCharsets.UTF_8);
    }
    List<Header> headers = new ArrayList<>(5);
    headers.add(header(PANE_INDEX, Integer.toString(pane.at("/pane/index").asInt())));
    headers.add(header(TIMING, pane.at("/pane/timing").asString()));
    headers.add(header(FINAL, Boolean.toString(entry.last())));
    headers.add(header(RETRACTION, Boolean.toString(retraction)));
    if (entry.traceparent() != null) {
      headers.add(header(TRACEPARENT, entry.traceparent()));
    }
    return new ProducerRecord<>(
        topic, null, recordKey(entry.key(), pane.get("window")), value, headers);
  }

  /**
   * {@code <key>@<start>/<end>} with the window's bounds as in the pane record ({@code
   * 2024-05-01T12:00:00.000Z}), or {@code <key>@global}. A key may contain '@', the bounds never
   * do: split at the last '@'.
   */
  static String recordKey(String key, JsonNode window) {
    if (window.has("global")) {
      return key + "@global";
    }
    return key + "@" + window.get("start").asString() + "/" + window.get("end").asString();
  }

  private static Header header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }
}
