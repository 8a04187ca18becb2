package io.eventide.core;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Remembers event ids for as long as the windows they went to can still change, so that a
 * redelivered event is counted once. Ids are forgotten when the watermark passes their expiry, and
 * past {@code maxIds} those that would expire soonest go first, as Redis trims its sorted set.
 */
public final class IdTracker {
  private record Entry(long expiry, String id) {}

  private final Map<String, Long> expiries = new HashMap<>();
  private final PriorityQueue<Entry> byExpiry =
      new PriorityQueue<>((a, b) -> Long.compare(a.expiry, b.expiry));
  private final int maxIds;

  public IdTracker(int maxIds) {
    this.maxIds = maxIds;
  }

  /** Whether an event with this id was applied and its windows can still change. */
  public boolean knows(String id) {
    return expiries.containsKey(id);
  }

  /** Remembers the id of an applied event until the watermark passes {@code expiry}. */
  public void remember(String id, long expiry) {
    if (expiries.putIfAbsent(id, expiry) == null) {
      byExpiry.add(new Entry(expiry, id));
      if (expiries.size() > maxIds) {
        forget(byExpiry.poll());
      }
    }
  }

  /** Forgets the ids whose windows the watermark has garbage-collected. */
  public void expire(long watermark) {
    while (!byExpiry.isEmpty() && byExpiry.peek().expiry < watermark) {
      forget(byExpiry.poll());
    }
  }

  private void forget(Entry e) {
    expiries.remove(e.id, e.expiry);
  }

  public int size() {
    return expiries.size();
  }
}
