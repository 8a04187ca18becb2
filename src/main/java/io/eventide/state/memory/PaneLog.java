package io.eventide.state.memory;

import io.eventide.sink.LogPage;
import io.eventide.sink.PaneEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * A pipeline's pane log in memory: the newest {@code capacity} entries in a ring, found by binary
 * search on their ids, which only increase. Not thread-safe; its owner's lock guards it.
 */
final class PaneLog {
  private final int capacity;
  private PaneEvent[] ring;
  private int head;
  private int size;
  private String trimmedThrough = LogPage.START;
  private long trimmed;

  PaneLog(int capacity) {
    this.capacity = capacity;
    this.ring = new PaneEvent[Math.min(capacity, 1024)];
  }

  void append(PaneEvent entry) {
    if (size == ring.length && ring.length < capacity) {
      // Grown as it fills, so that the many pipelines that log little hold little.
      PaneEvent[] larger = new PaneEvent[(int) Math.min(capacity, 2L * ring.length)];
      for (int i = 0; i < size; i++) {
        larger[i] = at(i);
      }
      ring = larger;
      head = 0;
    }
    if (size == ring.length) {
      trimmedThrough = ring[head].id();
      trimmed++;
      ring[head] = entry;
      head = (head + 1) % ring.length;
    } else {
      ring[(head + size) % ring.length] = entry;
      size++;
    }
  }

  String end() {
    return size == 0 ? trimmedThrough : at(size - 1).id();
  }

  LogPage after(String position, int limit) {
    int from = firstAfter(position);
    int to = Math.min(size, from + limit);
    List<PaneEvent> out = new ArrayList<>(Math.max(0, to - from));
    for (int i = from; i < to; i++) {
      out.add(at(i));
    }
    return new LogPage(out, trimmedThrough, end(), trimmed);
  }

  /** The index of the oldest entry whose id is greater than {@code position}. */
  private int firstAfter(String position) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (PaneEvent.compareIds(at(mid).id(), position) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private PaneEvent at(int index) {
    return ring[(head + index) % ring.length];
  }
}
