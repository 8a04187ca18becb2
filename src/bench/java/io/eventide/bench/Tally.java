package io.eventide.bench;

import io.eventide.engine.DropReason;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneOutput;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts what one engine emits. Keeps per-window state only when the checksum needs each window's
 * last pane (W2), so that the other workloads measure the engine rather than a map.
 */
final class Tally implements PaneOutput {
  private final long[] panesByTiming = new long[Timing.values().length];
  private final Map<WindowOfKey, LastPane> lastPanes;
  private long dropped;
  private double paneSum;

  Tally(boolean trackLastPanes) {
    lastPanes = trackLastPanes ? new HashMap<>() : null;
  }

  @Override
  public void pane(Pane pane) {
    panesByTiming[pane.info().timing().ordinal()]++;
    double value = ((Number) pane.value()).doubleValue();
    if (lastPanes == null) {
      paneSum += value;
      return;
    }
    LastPane last =
        lastPanes.computeIfAbsent(new WindowOfKey(pane.key(), pane.window()), w -> new LastPane());
    if (pane.info().index() > last.index) {
      last.index = pane.info().index();
      last.value = value;
    }
  }

  @Override
  public void dropped(int element, Window window, DropReason reason) {
    dropped++;
  }

  Outcome outcome() {
    double checksum = paneSum;
    long windows = -1;
    if (lastPanes != null) {
      checksum = 0;
      for (LastPane last : lastPanes.values()) {
        checksum += last.value;
      }
      windows = lastPanes.size();
    }
    return new Outcome(panesByTiming.clone(), dropped, checksum, windows);
  }

  private record WindowOfKey(String key, Window window) {}

  private static final class LastPane {
    int index = -1;
    double value;
  }
}
