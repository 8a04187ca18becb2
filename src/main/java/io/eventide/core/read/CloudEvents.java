package io.eventide.core.read;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.databind.json.JsonMapper;

/**
 * CloudEvents 1.0 (cloudevents.io) as Eventide takes them: the media types of the JSON event
 * format, which data content types are JSON, and a binary-mode event (its attributes in headers,
 * its data as the body or the record's value) written as the JSON event format, the one form {@link
 * EventReader} reads ({@link EventTexts#addCloudEvent}).
 */
public final class CloudEvents {
  /** The media type of one event in the JSON event format (structured mode). */
  public static final String STRUCTURED = "application/cloudevents+json";

  /** The media type of a JSON array of such events (batched mode). */
  public static final String BATCH = "application/cloudevents-batch+json";

  /** The version of the specification Eventide reads. */
  static final String SPEC_VERSION = "1.0";

  static final String DATA = "data";
  static final String DATA_BASE64 = "data_base64";

  /** The attribute of the data's media type, which a binding maps to its content type. */
  public static final String DATA_CONTENT_TYPE = "datacontenttype";

  private CloudEvents() {}

  /**
   * Whether {@code mediaType} (parameters allowed) declares JSON, as the JSON event format decides
   * it: a subtype {@code json} or one ending in {@code +json}.
   */
  public static boolean isJson(String mediaType) {
    String subtype = essence(mediaType);
    int slash = subtype.indexOf('/');
    if (slash < 0) {
      return false;
    }
    subtype = subtype.substring(slash + 1);
    return subtype.equals("json") || subtype.endsWith("+json");
  }

  /** Whether {@code mediaType} (parameters allowed) is {@code essence}, in any case. */
  public static boolean is(String mediaType, String essence) {
    return mediaType != null && essence(mediaType).equals(essence);
  }

  /** The type and subtype, lower case, without parameters. */
  private static String essence(String mediaType) {
    int semicolon = mediaType.indexOf(';');
    return (semicolon < 0 ? mediaType : mediaType.substring(0, semicolon))
        .trim()
        .toLowerCase(Locale.ROOT);
  }

  /**
   * What is wrong with the required attributes of the structured CloudEvent the parser is at the
   * start of ({@code specversion}, {@code id}, {@code source}, {@code type}, and a {@code time}
   * that is given), as {@link EventReader} would refuse it; null when nothing is. The parser is
   * left at the event's end; its data is skipped, not read.
   */
  public static InvalidEvent attributeProblem(JsonParser p) {
    CloudEventEnvelope envelope = new CloudEventEnvelope();
    envelope.readAttributes(p);
    return envelope.attributeProblem();
  }

  /**
   * Like {@link #attributeProblem(JsonParser)}, for a binary-mode event's attributes by name (lower
   * case, without the binding's prefix).
   */
  public static InvalidEvent attributeProblem(Map<String, String> attributes) {
    CloudEventEnvelope envelope = new CloudEventEnvelope();
    envelope.readAttributes(attributes);
    return envelope.attributeProblem();
  }

  /**
   * A binary-mode event as one JSON object of the JSON event format: each attribute a string member
   * (an extension's too), then the data, as it came when {@code datacontenttype} declares JSON or
   * is absent (the format's default) and the data is one JSON value; else as {@code data_base64},
   * which the reader refuses by its content type, or for not being JSON, with the reason. So data
   * can never add members of its own to the object. Names that are no attribute's ({@code data},
   * anything but lower-case letters and digits) are left out.
   *
   * @param attributes by name (lower case, without the binding's prefix), {@code datacontenttype}
   *     among them when the message declared a content type
   * @param data the body or record value; null or empty when the event has no data
   */
  public static byte[] fromBinary(Map<String, String> attributes, byte[] data) {
    JsonStringEncoder strings = JsonStringEncoder.getInstance();
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(64 + 32 * attributes.size() + (data == null ? 0 : data.length));
    out.write('{');
    boolean first = true;
    for (Map.Entry<String, String> a : attributes.entrySet()) {
      if (!attributeName(a.getKey())) {
        continue;
      }
      if (!first) {
        out.write(',');
      }
      first = false;
      member(out, a.getKey());
      out.write('"');
      out.writeBytes(strings.quoteAsUTF8(a.getValue()));
      out.write('"');
    }
    if (data != null && data.length > 0) {
      if (!first) {
        out.write(',');
      }
      String type = attributes.get(DATA_CONTENT_TYPE);
      if ((type == null || isJson(type)) && oneValue(data)) {
        member(out, DATA);
        out.writeBytes(data);
      } else {
        member(out, DATA_BASE64);
        out.write('"');
        out.writeBytes(Base64.getEncoder().encode(data));
        out.write('"');
      }
    }
    out.write('}');
    return out.toByteArray();
  }

  /**
   * Whether {@code data} is one JSON value, whitespace around it aside: only its tokens are read,
   * under the parser's default limits (the reader then applies the pipeline's).
   */
  private static boolean oneValue(byte[] data) {
    try (JsonParser p = JsonMapper.shared().createParser(data)) {
      if (p.nextToken() == null) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (JacksonException e) {
      return false;
    }
  }

  /** {@code "name":} */
  private static void member(ByteArrayOutputStream out, String name) {
    out.write('"');
    out.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
    out.write('"');
    out.write(':');
  }

  /** An attribute's name: lower-case ASCII letters and digits, and not the data's. */
  private static boolean attributeName(String name) {
    if (name.isEmpty() || name.equals(DATA)) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }
}
