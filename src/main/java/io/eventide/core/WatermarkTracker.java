package io.eventide.core;

import io.eventide.engine.Time;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The input watermark of a live pipeline, derived from its sources. Each source's watermark is the
 * latest event time it sent minus the allowed out-of-orderness, or what it posted explicitly,
 * whichever is later; the pipeline's is the minimum over the sources that are not idle. It never
 * goes backwards. Time is passed in, so that /simulate can run the same rules on a virtual clock.
 *
 * <p>The set of sources is bounded: at most {@code maxSources} at once, and a source silent for
 * {@code sourceExpiryIdleTimeouts} idle timeouts is forgotten, as if it had never spoken.
 *
 * <p>Not thread-safe: the owner serialises access.
 */
public final class WatermarkTracker {
  /** The source of events that name none. */
  public static final String DEFAULT_SOURCE = "default";

  private long maxOutOfOrderness;
  private long idleTimeout;
  private boolean idleAdvance;
  private final int maxSources;
  private final int expiryIdleTimeouts;
  private final Map<String, Source> sources = new TreeMap<>();

  /**
   * The source last looked up, and its name: a batch's events mostly come from one source, and a
   * lookup in the map compares names. Forgotten whenever a source is.
   */
  private String lastName;

  private Source last;

  /** A watermark posted for every source; sources seen later start from it. */
  private long floor = Time.MIN;

  private long current = Time.MIN;

  public WatermarkTracker(
      long maxOutOfOrderness, long idleTimeout, boolean idleAdvance, IngestBounds bounds) {
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.idleTimeout = idleTimeout;
    this.idleAdvance = idleAdvance;
    this.maxSources = bounds.maxSources();
    this.expiryIdleTimeouts = bounds.sourceExpiryIdleTimeouts();
  }

  /** New settings for the sources' watermarks; what was observed so far is kept. */
  public void reconfigure(long maxOutOfOrderness, long idleTimeout, boolean idleAdvance) {
    this.maxOutOfOrderness = maxOutOfOrderness;
    this.idleTimeout = idleTimeout;
    this.idleAdvance = idleAdvance;
  }

  /** A source's view: its watermark, whether it is idle, and when it was last heard from. */
  public record SourceView(String source, long watermark, boolean idle, long lastSeen) {}

  private static final class Source {
    long maxEventTime = Time.MIN;
    long posted = Time.MIN;
    long lastSeen;

    long watermark(long outOfOrderness, long floor) {
      long derived = maxEventTime == Time.MIN ? Time.MIN : maxEventTime - outOfOrderness;
      return Math.max(floor, Math.max(derived, posted));
    }
  }

  /**
   * Records an event time a source sent; the caller has already rejected future events.
   *
   * @return false when the source is new and {@code maxSources} are tracked already: nothing is
   *     recorded, and the event must not be applied
   */
  public boolean observe(String source, long eventTime, long now) {
    Source s = source(source, now);
    if (s == null) {
      return false;
    }
    s.maxEventTime = Math.max(s.maxEventTime, eventTime);
    s.lastSeen = Math.max(s.lastSeen, now);
    return true;
  }

  /** Whether a post or event from {@code source} would be taken, given the cap on sources. */
  public boolean admits(String source) {
    return sources.size() < maxSources
        || sources.containsKey(source == null ? DEFAULT_SOURCE : source);
  }

  public int maxSources() {
    return maxSources;
  }

  /**
   * Forgets the sources silent for the expiry. They are idle already, so the watermark is what it
   * was; the one heard from last stays, so that "every source is idle" (and with it idle advance)
   * keeps its meaning.
   */
  public void expire(long now) {
    if (sources.size() < 2) {
      return;
    }
    long expiry =
        idleTimeout > Long.MAX_VALUE / expiryIdleTimeouts
            ? Long.MAX_VALUE
            : idleTimeout * expiryIdleTimeouts;
    long newest = Long.MIN_VALUE;
    for (Source s : sources.values()) {
      newest = Math.max(newest, s.lastSeen);
    }
    long latest = newest;
    sources.values().removeIf(s -> s.lastSeen != latest && now - s.lastSeen > expiry);
    forgetLast();
  }

  /**
   * Records an explicit watermark. Without a source it moves every source (a drain).
   *
   * @return false when the watermark would go backwards, in which case it is ignored
   */
  public boolean post(String source, long watermark, long now) {
    if (source == null) {
      // Behind where the pipeline already is, it would move nothing: report it as ignored.
      if (watermark < Math.max(floor, current)) {
        return false;
      }
      floor = watermark;
      for (Source s : sources.values()) {
        s.lastSeen = Math.max(s.lastSeen, now);
      }
      return true;
    }
    Source s = source(source, now);
    if (s == null) {
      throw new IllegalStateException("source " + source + " is beyond the cap; ask admits first");
    }
    if (watermark < s.watermark(maxOutOfOrderness, floor)) {
      return false;
    }
    s.posted = watermark;
    s.lastSeen = Math.max(s.lastSeen, now);
    return true;
  }

  /** The pipeline watermark at {@code now}; never lower than a value returned before. */
  public long current(long now) {
    long min = Long.MAX_VALUE;
    boolean anyActive = false;
    for (Source s : sources.values()) {
      if (!isIdle(s, now)) {
        anyActive = true;
        min = Math.min(min, s.watermark(maxOutOfOrderness, floor));
      }
    }
    long candidate;
    if (anyActive) {
      candidate = min;
    } else if (idleAdvance && !sources.isEmpty()) {
      candidate = Math.max(floor, now - maxOutOfOrderness);
    } else {
      // Nothing active says how far event time has got; only an explicit drain moves it.
      candidate = sources.isEmpty() || floor > current ? floor : current;
    }
    current = Math.max(current, Math.min(candidate, Time.MAX));
    return current;
  }

  /** When any source was last heard from; {@link Time#MIN} before any was. */
  public long lastHeard() {
    long last = Time.MIN;
    for (Source s : sources.values()) {
      last = Math.max(last, s.lastSeen);
    }
    return last;
  }

  public List<SourceView> sources(long now) {
    List<SourceView> out = new ArrayList<>();
    sources.forEach(
        (name, s) ->
            out.add(
                new SourceView(
                    name, s.watermark(maxOutOfOrderness, floor), isIdle(s, now), s.lastSeen)));
    return out;
  }

  /**
   * What the tracker observed, for durable state: {@code {"floor", "current", "sources": {name:
   * [maxEventTime, posted, lastSeen]}}}. Settings are not in it; they come from the definition.
   */
  public String snapshot() {
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode out = json.objectNode().put("floor", floor).put("current", current);
    ObjectNode list = out.putObject("sources");
    sources.forEach(
        (name, s) -> list.putArray(name).add(s.maxEventTime).add(s.posted).add(s.lastSeen));
    return out.toString();
  }

  /** Takes back what {@link #snapshot()} wrote. */
  public void restore(String snapshotJson) {
    JsonNode snapshot = JsonMapper.shared().readTree(snapshotJson);
    floor = snapshot.get("floor").asLong();
    current = snapshot.get("current").asLong();
    sources.clear();
    forgetLast();
    snapshot
        .get("sources")
        .properties()
        .forEach(
            e -> {
              Source s = new Source();
              s.maxEventTime = e.getValue().get(0).asLong();
              s.posted = e.getValue().get(1).asLong();
              s.lastSeen = e.getValue().get(2).asLong();
              sources.put(e.getKey(), s);
            });
  }

  private boolean isIdle(Source s, long now) {
    return now - s.lastSeen > idleTimeout;
  }

  /** The source of that name, created if there is room; null when there is none. */
  private Source source(String name, long now) {
    String n = name == null ? DEFAULT_SOURCE : name;
    if (n.equals(lastName)) {
      return last;
    }
    Source s = sources.get(n);
    if (s == null && sources.size() < maxSources) {
      s = new Source();
      s.lastSeen = now;
      sources.put(n, s);
    }
    if (s != null) {
      lastName = n;
      last = s;
    }
    return s;
  }

  private void forgetLast() {
    lastName = null;
    last = null;
  }
}
