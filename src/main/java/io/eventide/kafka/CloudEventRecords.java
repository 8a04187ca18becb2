package io.eventide.kafka;

import io.eventide.core.read.CloudEvents;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.header.Header;

/**
 * How a record of a source topic carries a CloudEvent, as the CloudEvents Kafka binding says: a
 * {@code content-type} header of the JSON event format makes the value a whole CloudEvent
 * (structured mode); else a {@code ce_specversion} header makes the {@code ce_} headers its
 * attributes and the value its data (binary mode); else the record is a plain event.
 */
final class CloudEventRecords {
  private static final String PREFIX = "ce_";
  private static final String SPEC_VERSION = PREFIX + "specversion";
  private static final String CONTENT_TYPE = "content-type";

  /** How a record carries its event. */
  enum Mode {
    PLAIN,
    STRUCTURED,
    BINARY
  }

  private CloudEventRecords() {}

  /** The mode of a record with these headers; a record without headers is plain at no cost. */
  static Mode mode(Header[] headers) {
    Mode mode = Mode.PLAIN;
    for (Header h : headers) {
      if (h.key().equalsIgnoreCase(CONTENT_TYPE)
          && CloudEvents.is(text(h), CloudEvents.STRUCTURED)) {
        return Mode.STRUCTURED;
      }
      if (h.key().equals(SPEC_VERSION)) {
        mode = Mode.BINARY;
      }
    }
    return mode;
  }

  /**
   * A binary-mode record as the JSON event format: each {@code ce_<name>} header (UTF-8, the last
   * of a name) attribute {@code <name>}, {@code content-type} its {@code datacontenttype}, the
   * value its data (none when the record has no value).
   */
  static byte[] structured(Header[] headers, byte[] value) {
    Map<String, String> attributes = new LinkedHashMap<>();
    String contentType = null;
    for (Header h : headers) {
      if (h.key().startsWith(PREFIX)) {
        attributes.put(h.key().substring(PREFIX.length()), text(h));
      } else if (h.key().equalsIgnoreCase(CONTENT_TYPE)) {
        contentType = text(h);
      }
    }
    // The binding maps the data's content type to content-type only; a ce_ header of it is void.
    attributes.remove(CloudEvents.DATA_CONTENT_TYPE);
    if (contentType != null) {
      attributes.put(CloudEvents.DATA_CONTENT_TYPE, contentType);
    }
    return CloudEvents.fromBinary(attributes, value);
  }

  private static String text(Header h) {
    return h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
  }
}
