package io.eventide.api;

import io.eventide.sink.LogEntryKind;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneStreamItem;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Pane stream items as server-sent events, laid out as Spring's own writer lays them out. Written
 * with {@code writeWith} rather than Spring's event writer, which flushes after every event: the
 * server writes what a stream has at hand and flushes once, so a burst of panes goes out in a few
 * packets, and each pane's record goes out as it was rendered at commit, without being parsed
 * again.
 */
final class SseFrames {
  /** A comment that keeps proxies from closing a quiet stream. */
  static final byte[] HEARTBEAT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

  /** Room for an event's fields around its data. */
  private static final int FIELDS = 64;

  private SseFrames() {}

  /** One item as an event. */
  static byte[] of(PaneStreamItem item) {
    if (item instanceof PaneEvent p
        && p.kind() != LogEntryKind.SNAPSHOT
        && p.json().indexOf('\n') < 0) {
      return pane(p);
    }
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(FIELDS + (item instanceof PaneEvent p ? p.json().length() : 0));
    write(out, item);
    return out.toByteArray();
  }

  /**
   * A pane of the log, the event nearly every frame is: laid out straight into an array of its size
   * (ids and kinds are ASCII), its record's bytes copied once.
   */
  private static byte[] pane(PaneEvent p) {
    byte[] record = p.json().getBytes(StandardCharsets.UTF_8);
    String head = "id:" + p.id() + "\nevent:" + p.kind().wireName() + "\ndata:";
    byte[] frame = new byte[head.length() + record.length + 2];
    for (int i = 0; i < head.length(); i++) {
      frame[i] = (byte) head.charAt(i);
    }
    System.arraycopy(record, 0, frame, head.length(), record.length);
    frame[frame.length - 2] = '\n';
    frame[frame.length - 1] = '\n';
    return frame;
  }

  /** A stream's last event, saying why it ends. */
  static byte[] event(String event, ObjectNode data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(FIELDS);
    frame(out, null, event, data.toString());
    return out.toByteArray();
  }

  private static void write(ByteArrayOutputStream out, PaneStreamItem item) {
    if (item instanceof PaneEvent p && p.kind() == LogEntryKind.SNAPSHOT) {
      // No id: a client cut off within the snapshot reconnects without Last-Event-ID and so gets
      // the whole snapshot again rather than a part of it.
      frame(
          out,
          null,
          p.kind().wireName(),
          "{\"position\":\"" + p.id() + "\",\"pane\":" + p.json() + "}");
      return;
    }
    if (item instanceof PaneEvent p) {
      frame(out, p.id(), p.kind().wireName(), p.json());
      return;
    }
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    if (item instanceof PaneStreamItem.SnapshotEnd end) {
      data.put("position", end.position());
      data.put("windows", end.windows());
      frame(out, end.position(), "snapshot-end", data.toString());
      return;
    }
    PaneStreamItem.Behind behind = (PaneStreamItem.Behind) item;
    data.put(
        "reason",
        "the log no longer holds the panes after position; resume from resumeFrom (losing"
            + " those) or start over with snapshot=true");
    data.put("position", behind.position());
    data.put("resumeFrom", behind.resumeFrom());
    frame(out, null, "behind", data.toString());
  }

  private static void frame(ByteArrayOutputStream out, String id, String event, String data) {
    if (id != null) {
      ascii(out, "id:");
      ascii(out, id);
      out.write('\n');
    }
    ascii(out, "event:");
    ascii(out, event);
    ascii(out, "\ndata:");
    // Records are compact JSON, but a line break would end the field: each line is a data line.
    out.writeBytes(data.replace("\n", "\ndata:").getBytes(StandardCharsets.UTF_8));
    ascii(out, "\n\n");
  }

  private static void ascii(ByteArrayOutputStream out, String s) {
    for (int i = 0; i < s.length(); i++) {
      out.write(s.charAt(i));
    }
  }
}
