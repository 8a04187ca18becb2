package io.eventide.runtime;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.core.IncomingEvent;
import io.eventide.core.read.EventTexts;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A request's events in one record of the ingest log ({@link LogRecord.Kind#EVENTS}). */
class EventFramesTest {
  @Test
  void eventsComeBackAsTheyWereSentLineBreaksIncluded() {
    List<IncomingEvent> sent =
        events(
            "{\"key\": \"a\",\n  \"value\": 1}", "{}", "{\"key\": \"\u00e9\", \"timestamp\": 5}");
    byte[] body = EventFrames.write(sent, 1, 2);
    EventTexts read = new EventTexts(4);
    assertThat(EventFrames.read(body, read)).isEqualTo(2);
    assertThat(read.string(0)).isEqualTo("{}");
    assertThat(read.string(1)).isEqualTo("{\"key\": \"\u00e9\", \"timestamp\": 5}");
    assertThat(EventFrames.read(EventFrames.write(sent, 0, 3), new EventTexts(4))).isEqualTo(3);
  }

  @Test
  void aRecordHoldsEventsUpToItsSizeAndALargerEventAlone() {
    String large = "{\"value\": \"" + "x".repeat(EventFrames.MAX_BYTES) + "\"}";
    String small = "{\"value\": \"" + "y".repeat(100_000) + "\"}";
    List<IncomingEvent> sent = events(small, small, small, small, small, small, large, small);
    assertThat(EventFrames.fitting(sent, 0)).isEqualTo(5);
    assertThat(EventFrames.fitting(sent, 5)).isEqualTo(1);
    assertThat(EventFrames.fitting(sent, 6)).as("an event beyond the size on its own").isEqualTo(1);
    assertThat(EventFrames.fitting(sent, 7)).isEqualTo(1);
    assertThat(EventFrames.write(sent, 0, 5)).hasSizeLessThanOrEqualTo(EventFrames.MAX_BYTES);
  }

  @Test
  void aBodyCutShortEndsItsEvents() {
    byte[] body = EventFrames.write(events("{\"a\": 1}", "{\"b\": 2}"), 0, 2);
    byte[] cut = java.util.Arrays.copyOf(body, body.length - 1);
    EventTexts read = new EventTexts(2);
    assertThat(EventFrames.read(cut, read)).isEqualTo(1);
    assertThat(read.string(0)).isEqualTo("{\"a\": 1}");
  }

  private static List<IncomingEvent> events(String... texts) {
    EventTexts batch = new EventTexts(texts.length);
    for (String t : texts) {
      // Each text after some bytes of another, as a body's events lie in it.
      byte[] padded = ("--" + t).getBytes(UTF_8);
      batch.add(padded, 2, padded.length - 2);
    }
    List<IncomingEvent> out = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      out.add(new IncomingEvent(null, batch, i, null));
    }
    return out;
  }
}
