package io.eventide.sink;

import io.eventide.engine.Pane;
import io.eventide.engine.Timing;

/**
 * An entry of a pipeline's pane log as pane streams carry it: a pane, a retraction or a session
 * window merged away, rendered once, with its position in the log and what subscribers filter on. A
 * stream resumed from the log and a live one deliver the same items.
 *
 * @param id the entry's position in the pipeline's pane log (Last-Event-ID resumes after it)
 * @param timing the pane's timing; null for a merge, progress or a final (its record has it)
 * @param last whether the pane is its window's final one; false for a merge
 * @param json the pane record ({@link io.eventide.core.render.PaneRecords}), or for a merge the
 *     window merged away ({@link io.eventide.core.render.PaneRecords#merge})
 * @param traceparent the span of the commit that logged the pane or final, as a W3C {@code
 *     traceparent}, for the Kafka sink's records; null when that commit was not traced
 *     (docs/operations.md#tracing), and for every other kind
 */
public record PaneEvent(
    String id,
    LogEntryKind kind,
    String key,
    Timing timing,
    boolean last,
    String json,
    String traceparent) {

  /** An entry of a commit that was not traced. */
  public PaneEvent(
      String id, LogEntryKind kind, String key, Timing timing, boolean last, String json) {
    this(id, kind, key, timing, last, json, null);
  }

  /** A pane's entry at {@code id}, logged by the commit whose span is {@code traceparent}. */
  public static PaneEvent of(String id, Pane pane, String json, String traceparent) {
    return new PaneEvent(
        id,
        pane.retraction() ? LogEntryKind.RETRACTION : LogEntryKind.PANE,
        pane.key(),
        pane.info().timing(),
        pane.isFinal(),
        json,
        traceparent);
  }

  /** A session window's entry at {@code id}: merged away into another window of its key. */
  public static PaneEvent merge(String id, String key, String json) {
    return new PaneEvent(id, LogEntryKind.MERGE, key, null, false, json);
  }

  /**
   * A window's last pane (its result {@code json}) logged again at {@code id} as final by the
   * commit whose span is {@code traceparent}: the window closed without a closing pane.
   */
  public static PaneEvent finalAgain(String id, String key, String json, String traceparent) {
    return new PaneEvent(id, LogEntryKind.FINAL, key, null, true, json, traceparent);
  }

  /**
   * A progress marker's entry at {@code id} in the pane log: it carries nothing, readers skip it.
   */
  public static PaneEvent progress(String id) {
    return progress(id, "");
  }

  /**
   * The progress a stream sends after the log's entries through {@code id} ({@link
   * io.eventide.core.render.PaneRecords#progress}).
   */
  public static PaneEvent progress(String id, String json) {
    return new PaneEvent(id, LogEntryKind.PROGRESS, null, null, false, json);
  }

  /** Orders pane log ids: {@code <ms>-<seq>} from Redis streams and the memory store alike. */
  public static int compareIds(String a, String b) {
    int c = Long.compare(part(a, 0), part(b, 0));
    return c != 0 ? c : Long.compare(part(a, 1), part(b, 1));
  }

  private static long part(String id, int which) {
    int dash = id.indexOf('-');
    if (dash < 0) {
      return which == 0 ? Long.parseLong(id) : 0;
    }
    return Long.parseLong(which == 0 ? id.substring(0, dash) : id.substring(dash + 1));
  }

  /** Whether {@code id} is a pane log id at all, so that a bad Last-Event-ID gets a 400. */
  public static boolean isValidId(String id) {
    return id != null && id.matches("\\d{1,19}(-\\d{1,19})?");
  }

  /** The copy of this entry a snapshot delivers: the window's result as of the log position. */
  public PaneEvent asOf(String position) {
    return new PaneEvent(position, LogEntryKind.SNAPSHOT, key, timing, last, json);
  }
}
