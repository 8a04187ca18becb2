package io.eventide.kafka;

import io.eventide.runtime.IngestLog;
import io.eventide.runtime.LogRecord;
import io.eventide.runtime.SourceOffset;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link LogRecord} is written to a pipeline's ingest topic: the body as the value, the
 * event's key as the key (for reading the topic by hand; none for a record of several events), the
 * time it was read as the record's timestamp, and the rest in headers.
 */
final class IngestRecords {
  private static final Logger log = LoggerFactory.getLogger(IngestRecords.class);

  static final String KIND = "eventide-kind";
  static final String LINEAGE = "eventide-lineage";
  static final String SOURCE = "eventide-source";
  static final String REQUEST = "eventide-request";
  static final String ORIGIN = "eventide-origin";
  static final String ORIGIN_OFFSET = "eventide-origin-offset";
  static final String POSITION = "eventide-position";

  /** {@link LogRecord#appendedTo()}: a bit set, bit i of byte i/8 for partition i. */
  static final String APPENDED_TO = "eventide-appended-to";

  /** The logging request's span (W3C Trace Context's own header name), when it is traced. */
  static final String TRACEPARENT = "traceparent";

  private IngestRecords() {}

  static ProducerRecord<byte[], byte[]> of(String topic, IngestLog.Entry entry) {
    LogRecord r = entry.record();
    Headers headers = new RecordHeaders();
    headers.add(KIND, utf8(r.kind().name()));
    headers.add(LINEAGE, utf8(r.lineage()));
    if (r.source() != null) {
      headers.add(SOURCE, utf8(r.source()));
    }
    if (r.request() != null) {
      headers.add(REQUEST, utf8(r.request()));
    }
    if (r.position() >= 0) {
      headers.add(POSITION, utf8(Integer.toString(r.position())));
    }
    if (r.origin() != null) {
      headers.add(ORIGIN, utf8(r.origin().partition()));
      headers.add(ORIGIN_OFFSET, utf8(Long.toString(r.origin().offset())));
    }
    if (r.traceparent() != null) {
      headers.add(TRACEPARENT, utf8(r.traceparent()));
    }
    if (r.appendedTo() != null) {
      headers.add(APPENDED_TO, r.appendedTo().toByteArray());
    }
    return new ProducerRecord<>(
        topic,
        entry.partition(),
        r.readAt(),
        entry.key() == null ? null : utf8(entry.key()),
        r.body(),
        headers);
  }

  /**
   * The record as logged; null for a record Eventide did not write (no kind or lineage, or a
   * watermark that is no number).
   */
  static LogRecord read(ConsumerRecord<byte[], byte[]> record) {
    String kind = text(record.headers().lastHeader(KIND));
    String lineage = text(record.headers().lastHeader(LINEAGE));
    if (kind == null || lineage == null) {
      return null;
    }
    LogRecord.Kind k;
    try {
      k = LogRecord.Kind.valueOf(kind);
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (k == LogRecord.Kind.WATERMARK && !isMillis(record.value())) {
      // Eventide logs a watermark as decimal milliseconds: this one came from elsewhere, and
      // would stop the partition's reader for good at every read.
      log.warn(
          "skipping record {}-{}@{}: a watermark that is not a number of milliseconds",
          record.topic(),
          record.partition(),
          record.offset());
      return null;
    }
    return new LogRecord(
        k,
        lineage,
        record.timestamp(),
        text(record.headers().lastHeader(SOURCE)),
        record.value() == null ? new byte[0] : record.value(),
        text(record.headers().lastHeader(REQUEST)),
        origin(record),
        position(record),
        text(record.headers().lastHeader(TRACEPARENT)),
        appendedTo(record));
  }

  private static int position(ConsumerRecord<byte[], byte[]> record) {
    String position = text(record.headers().lastHeader(POSITION));
    if (position == null) {
      return -1;
    }
    try {
      return Integer.parseInt(position);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static BitSet appendedTo(ConsumerRecord<byte[], byte[]> record) {
    Header h = record.headers().lastHeader(APPENDED_TO);
    return h == null || h.value() == null ? null : BitSet.valueOf(h.value());
  }

  private static boolean isMillis(byte[] body) {
    if (body == null) {
      return false;
    }
    try {
      Long.parseLong(new String(body, StandardCharsets.UTF_8));
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static SourceOffset origin(ConsumerRecord<byte[], byte[]> record) {
    String partition = text(record.headers().lastHeader(ORIGIN));
    String offset = text(record.headers().lastHeader(ORIGIN_OFFSET));
    if (partition == null || offset == null) {
      return null;
    }
    try {
      return new SourceOffset(partition, Long.parseLong(offset));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(Header h) {
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }
}
