package io.eventide.api;

import io.eventide.core.read.CloudEvents;
import io.eventide.core.read.InvalidEvent;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpHeaders;

/**
 * The attributes of a binary-mode CloudEvent from its HTTP headers, as the CloudEvents HTTP binding
 * maps them: each {@code ce-<name>} header is attribute {@code <name>}, its value unquoted when it
 * is a quoted string and then percent-decoded as UTF-8; {@code Content-Type} is the {@code
 * datacontenttype}.
 */
final class CloudEventHeaders {
  private static final String PREFIX = "ce-";

  private CloudEventHeaders() {}

  /**
   * The event's attributes by name, in the order of the headers, its required ones checked: a post
   * of one event whose {@code ce-id} (or {@code ce-specversion}, {@code ce-source}, {@code
   * ce-type}, {@code ce-time}) is missing or wrong is refused whole, before it is applied.
   *
   * @throws InvalidInputException naming the header whose value is not percent-encoded UTF-8, or
   *     the first header of a required attribute that is missing or wrong, with why
   */
  static Map<String, String> attributes(HttpHeaders headers) {
    Map<String, String> attributes = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> header : headers.headerSet()) {
      String name = header.getKey().toLowerCase(Locale.ROOT);
      if (name.startsWith(PREFIX) && !header.getValue().isEmpty()) {
        attributes.putIfAbsent(
            name.substring(PREFIX.length()), decode(name, header.getValue().get(0)));
      }
    }
    // The binding maps the data's content type to Content-Type only; a ce- header of it is void.
    attributes.remove(CloudEvents.DATA_CONTENT_TYPE);
    String contentType = headers.getFirst(HttpHeaders.CONTENT_TYPE);
    if (contentType != null) {
      attributes.put(CloudEvents.DATA_CONTENT_TYPE, contentType);
    }
    InvalidEvent problem = CloudEvents.attributeProblem(attributes);
    if (problem != null) {
      // The attribute's pointer, /id, is its header's name without the prefix.
      throw refused(PREFIX + problem.path().substring(1), problem.reason());
    }
    return attributes;
  }

  /** A header's value: unquoted if quoted (as older senders wrote it), then percent-decoded. */
  private static String decode(String header, String value) {
    String text = value.trim();
    if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
      text = unquote(text.substring(1, text.length() - 1));
    }
    if (text.chars().allMatch(c -> c != '%' && c < 0x80)) {
      return text;
    }
    // A header's characters are its bytes (ISO-8859-1): bytes sent unencoded are decoded too.
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c != '%') {
        if (c > 0xff) {
          throw refused(header, "must be percent-encoded");
        }
        bytes.write(c);
        continue;
      }
      int high = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
      int low = high < 0 ? -1 : Character.digit(text.charAt(i + 2), 16);
      if (low < 0) {
        throw refused(header, "has a '%' that is not followed by two hexadecimal digits");
      }
      bytes.write(high * 16 + low);
      i += 2;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw refused(header, "must percent-encode UTF-8; its bytes are not UTF-8");
    }
  }

  /** The inside of a quoted string, its backslash escapes undone. */
  private static String unquote(String quoted) {
    StringBuilder out = new StringBuilder(quoted.length());
    for (int i = 0; i < quoted.length(); i++) {
      char c = quoted.charAt(i);
      if (c == '\\' && i + 1 < quoted.length()) {
        c = quoted.charAt(++i);
      }
      out.append(c);
    }
    return out.toString();
  }

  private static InvalidInputException refused(String header, String reason) {
    return new InvalidInputException(List.of(new Violation(header, reason)));
  }
}
