package io.eventide.api;

import io.eventide.core.KeyedWindow;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The {@code after} cursor of {@code /results}: the last window of a page, opaque to clients
 * (base64url of {@code <start>:<end>:<key>}), so that the next page starts after it in the store's
 * own order even when that window has left the results meanwhile.
 */
final class ResultsCursor {
  private ResultsCursor() {}

  static String encode(KeyedWindow w) {
    String text = w.start() + ":" + w.end() + ":" + w.key();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static KeyedWindow decode(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      int first = text.indexOf(':');
      int second = text.indexOf(':', first + 1);
      return new KeyedWindow(
          text.substring(second + 1),
          Long.parseLong(text.substring(0, first)),
          Long.parseLong(text.substring(first + 1, second)));
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new InvalidInputException(
          List.of(new Violation("after", "must be a cursor as a results page's next gives it")));
    }
  }
}
