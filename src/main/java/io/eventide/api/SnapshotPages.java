package io.eventide.api;

import io.eventide.core.KeyedWindow;
import io.eventide.definition.json.Timestamps;
import io.eventide.engine.Window;
import io.eventide.sink.PaneEvent;
import io.eventide.state.OutputStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a snapshot read in pages left each window: page by page, the last window of the page and
 * the pane log position the page was read at. A page holds every window between the one before's
 * last and its own last as of its position, so a log entry of such a window up to that position is
 * in the snapshot already and the stream skips it: each window is seen as of one position and then
 * changes after it, with no gap and no repeat, as a snapshot read at one moment would show it. One
 * pair per page: at most the results kept over the page size.
 */
final class SnapshotPages {
  private final Comparator<KeyedWindow> order;
  private final List<KeyedWindow> lasts = new ArrayList<>();
  private final List<String> positions = new ArrayList<>();

  SnapshotPages(Comparator<KeyedWindow> order) {
    this.order = order;
  }

  /** Records a page that was sent. */
  void read(OutputStore.Snapshot page) {
    // The last page, with no next, takes every window after the page before's.
    lasts.add(page.next());
    positions.add(page.position());
  }

  /** Whether the snapshot already reflects the log entry {@code e}. */
  boolean reflects(PaneEvent e) {
    if (positions.isEmpty()
        || PaneEvent.compareIds(e.id(), positions.get(positions.size() - 1)) > 0) {
      return false;
    }
    KeyedWindow w = windowOf(e);
    // The first page whose last window is at or after w; the last page has none and takes the rest.
    int low = 0;
    int high = lasts.size() - 1;
    while (low < high) {
      int mid = (low + high) >>> 1;
      KeyedWindow last = lasts.get(mid);
      if (last != null && order.compare(last, w) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return PaneEvent.compareIds(e.id(), positions.get(low)) <= 0;
  }

  /** The window a pane, retraction or merge entry is about, from its record. */
  private static KeyedWindow windowOf(PaneEvent e) {
    JsonNode window = JsonMapper.shared().readTree(e.json()).get("window");
    if (window.path("global").asBoolean()) {
      return new KeyedWindow(e.key(), Window.GLOBAL.start(), Window.GLOBAL.end());
    }
    return new KeyedWindow(
        e.key(), Timestamps.parse(window.get("start")), Timestamps.parse(window.get("end")));
  }
}
