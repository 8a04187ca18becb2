package io.eventide.runtime;

import io.eventide.core.IncomingEvent;
import io.eventide.core.read.EventTexts;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The body of a {@link LogRecord.Kind#EVENTS} record: events as JSON, each preceded by its length
 * in four bytes (big-endian), so that an event's own line breaks (a pretty-printed array's) need no
 * escaping and the owner reads each from the record's bytes as they are. Public for whoever reads
 * an ingest topic by hand (docs/scaling.md#the-path-of-an-event).
 */
public final class EventFrames {
  /** A record's events stop before this many bytes, well within Kafka's default 1 MB a record. */
  static final int MAX_BYTES = 512 * 1024;

  private EventFrames() {}

  /** How many of {@code events} from {@code from} on go in one record (one at least). */
  static int fitting(List<IncomingEvent> events, int from) {
    int bytes = 0;
    int to = from;
    while (to < events.size()) {
      bytes += 4 + length(events.get(to));
      if (bytes > MAX_BYTES && to > from) {
        break;
      }
      to++;
    }
    return to - from;
  }

  /** The body for {@code count} events from {@code from} on. */
  static byte[] write(List<IncomingEvent> events, int from, int count) {
    int bytes = 0;
    for (int i = from; i < from + count; i++) {
      bytes += 4 + length(events.get(i));
    }
    ByteBuffer body = ByteBuffer.allocate(bytes);
    for (int i = from; i < from + count; i++) {
      IncomingEvent e = events.get(i);
      EventTexts texts = e.texts();
      body.putInt(length(e)).put(texts.array(e.index()), texts.offset(e.index()), length(e));
    }
    return body.array();
  }

  private static int length(IncomingEvent e) {
    return e.texts().length(e.index());
  }

  /**
   * Adds the body's events to {@code into}, each a view of the body's bytes.
   *
   * @return how many were added; a body cut short ends them (Eventide never writes one)
   */
  public static int read(byte[] body, EventTexts into) {
    ByteBuffer frames = ByteBuffer.wrap(body);
    int read = 0;
    while (frames.remaining() >= 4) {
      int length = frames.getInt();
      if (length < 0 || length > frames.remaining()) {
        break;
      }
      into.add(body, frames.position(), length);
      frames.position(frames.position() + length);
      read++;
    }
    return read;
  }
}
