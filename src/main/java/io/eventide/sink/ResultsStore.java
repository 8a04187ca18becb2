package io.eventide.sink;

import io.eventide.config.OutputProperties;
import io.eventide.engine.Pane;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.springframework.stereotype.Component;

/**
 * The latest pane of each window, decided by pane index and never by arrival order, so that a
 * delayed earlier pane cannot overwrite a newer one. Bounded per pipeline: past the limit the
 * windows that start earliest are forgotten first.
 */
@Component
public class ResultsStore implements PaneListener {
  private static final Comparator<WindowKey> ORDER =
      Comparator.comparingLong(WindowKey::start)
          .thenComparing(WindowKey::key)
          .thenComparingLong(WindowKey::end);

  private final Map<String, ConcurrentSkipListMap<WindowKey, Pane>> results =
      new ConcurrentHashMap<>();
  private final int limitPerPipeline;

  /** Identifies a window of a key. */
  public record WindowKey(String key, long start, long end) {}

  public ResultsStore(OutputProperties properties) {
    this.limitPerPipeline = properties.resultsPerPipeline();
  }

  @Override
  public void onPanes(String pipeline, List<Pane> panes) {
    ConcurrentSkipListMap<WindowKey, Pane> map =
        results.computeIfAbsent(pipeline, p -> new ConcurrentSkipListMap<>(ORDER));
    for (Pane pane : panes) {
      if (pane.retraction()) {
        continue;
      }
      WindowKey k = new WindowKey(pane.key(), pane.window().start(), pane.window().end());
      map.merge(k, pane, (old, now) -> now.info().index() >= old.info().index() ? now : old);
    }
    while (map.size() > limitPerPipeline) {
      map.pollFirstEntry();
    }
  }

  /**
   * The latest pane per window, optionally for one key and windows that overlap {@code [from, to)},
   * ordered by window start and key.
   */
  public List<Pane> query(String pipeline, String key, long from, long to) {
    ConcurrentSkipListMap<WindowKey, Pane> map = results.get(pipeline);
    if (map == null) {
      return List.of();
    }
    List<Pane> out = new ArrayList<>();
    for (Map.Entry<WindowKey, Pane> e : map.entrySet()) {
      WindowKey k = e.getKey();
      if ((key == null || key.equals(k.key())) && k.end() > from && k.start() < to) {
        out.add(e.getValue());
      }
    }
    return out;
  }

  public void clear(String pipeline) {
    results.remove(pipeline);
  }
}
