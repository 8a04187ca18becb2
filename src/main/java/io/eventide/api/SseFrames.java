package io.eventide.api;

import io.eventide.sink.LogEntryKind;
import io.eventide.sink.PaneEvent;
import io.eventide.sink.PaneStreamItem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Pane stream items as server-sent events, laid out as Spring's own writer lays them out. Written
 * with {@code writeWith} rather than Spring's event writer, which flushes after every event: a run
 * of entries becomes one array of events, so a burst of panes costs the stream a write per run and
 * one flush, and each pane's record goes out as it was rendered at commit, without being parsed
 * again.
 */
final class SseFrames {
  /** A comment that keeps proxies from closing a quiet stream. */
  static final byte[] HEARTBEAT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

  private static final String ID = "id:";
  private static final String EVENT = "event:";
  private static final String DATA = "data:";

  private SseFrames() {}

  /** One item as the events it holds. */
  static byte[] of(PaneStreamItem item) {
    if (item instanceof PaneStreamItem.Entries entries) {
      return entries(entries.events());
    }
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    if (item instanceof PaneStreamItem.SnapshotEnd end) {
      data.put("position", end.position());
      data.put("windows", end.windows());
      return event(end.position(), "snapshot-end", data.toString());
    }
    PaneStreamItem.Behind behind = (PaneStreamItem.Behind) item;
    data.put(
        "reason",
        "the log no longer holds the panes after position; resume from resumeFrom (losing"
            + " those) or start over with snapshot=true");
    data.put("position", behind.position());
    data.put("resumeFrom", behind.resumeFrom());
    return event(null, "behind", data.toString());
  }

  /** A stream's last event, saying why it ends. */
  static byte[] event(String event, ObjectNode data) {
    return event(null, event, data.toString());
  }

  private static byte[] event(String id, String event, String data) {
    byte[] text = data(data).getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[headLength(id, event) + text.length + 2];
    finish(out, head(out, 0, id, event), text);
    return out;
  }

  /**
   * The entries' events in one array of their exact size: each record encoded once and copied once
   * (ids and kinds are ASCII).
   */
  private static byte[] entries(List<PaneEvent> events) {
    byte[][] texts = new byte[events.size()][];
    int size = 0;
    for (int i = 0; i < texts.length; i++) {
      PaneEvent e = events.get(i);
      texts[i] = data(text(e)).getBytes(StandardCharsets.UTF_8);
      size += headLength(id(e), e.kind().wireName()) + texts[i].length + 2;
    }
    byte[] out = new byte[size];
    int at = 0;
    for (int i = 0; i < texts.length; i++) {
      PaneEvent e = events.get(i);
      at = finish(out, head(out, at, id(e), e.kind().wireName()), texts[i]);
    }
    return out;
  }

  /**
   * No id for a snapshot's items: a client cut off within the snapshot reconnects without
   * Last-Event-ID and so gets the whole snapshot again rather than a part of it. None for progress
   * either: it is no log entry to resume after, and a resumed stream opens with the progress now.
   */
  private static String id(PaneEvent e) {
    return e.kind() == LogEntryKind.SNAPSHOT || e.kind() == LogEntryKind.PROGRESS ? null : e.id();
  }

  private static String text(PaneEvent e) {
    return e.kind() == LogEntryKind.SNAPSHOT
        ? "{\"position\":\"" + e.id() + "\",\"pane\":" + e.json() + "}"
        : e.json();
  }

  /** Records are compact JSON, but a line break would end the field: each line is a data line. */
  private static String data(String text) {
    return text.indexOf('\n') < 0 ? text : text.replace("\n", "\n" + DATA);
  }

  private static int headLength(String id, String event) {
    return (id == null ? 0 : ID.length() + id.length() + 1)
        + EVENT.length()
        + event.length()
        + 1
        + DATA.length();
  }

  private static int head(byte[] out, int at, String id, String event) {
    if (id != null) {
      at = ascii(out, ascii(out, at, ID), id);
      out[at++] = '\n';
    }
    at = ascii(out, ascii(out, at, EVENT), event);
    out[at++] = '\n';
    return ascii(out, at, DATA);
  }

  private static int finish(byte[] out, int at, byte[] text) {
    System.arraycopy(text, 0, out, at, text.length);
    at += text.length;
    out[at++] = '\n';
    out[at++] = '\n';
    return at;
  }

  private static int ascii(byte[] out, int at, String s) {
    for (int i = 0; i < s.length(); i++) {
      out[at++] = (byte) s.charAt(i);
    }
    return at;
  }
}
