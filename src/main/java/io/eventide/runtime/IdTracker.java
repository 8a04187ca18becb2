package io.eventide.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Remembers event ids for as long as the windows they went to can still change, so that a
 * redelivered event is counted once. Ids are forgotten when the watermark passes their expiry.
 */
final class IdTracker {
  private record Entry(long expiry, String id) {}

  private final Map<String, Long> expiries = new HashMap<>();
  private final PriorityQueue<Entry> byExpiry =
      new PriorityQueue<>((a, b) -> Long.compare(a.expiry, b.expiry));

  /** Records the id; false when it was seen before and has not expired. */
  boolean firstSighting(String id, long expiry) {
    Long known = expiries.putIfAbsent(id, expiry);
    if (known != null) {
      return false;
    }
    byExpiry.add(new Entry(expiry, id));
    return true;
  }

  /** Forgets the ids whose windows the watermark has garbage-collected. */
  void expire(long watermark) {
    while (!byExpiry.isEmpty() && byExpiry.peek().expiry < watermark) {
      Entry e = byExpiry.poll();
      expiries.remove(e.id, e.expiry);
    }
  }

  int size() {
    return expiries.size();
  }
}
