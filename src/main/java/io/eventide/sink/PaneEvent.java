package io.eventide.sink;

import io.eventide.engine.Timing;

/**
 * A pane as pane streams carry it: rendered once, with its position in the pipeline's pane log and
 * what subscribers filter on. A stream resumed from the log and a live one deliver the same items.
 *
 * @param id the pane's position in the pipeline's pane log (Last-Event-ID resumes after it)
 * @param json the pane record ({@link io.eventide.pipeline.PaneRecords})
 */
public record PaneEvent(
    String id, String key, Timing timing, boolean last, boolean retraction, String json)
    implements PaneStreamItem {

  /** Orders pane log ids: {@code <ms>-<seq>} from Redis streams, a plain counter in memory. */
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
}
