package io.eventide.core;

import io.eventide.engine.KeyOrder;
import io.eventide.engine.WindowSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Open windows of several shards as one page: each shard gives its first windows after a cursor,
 * and the page is the first of them all in key ({@link KeyOrder}) and window order.
 */
public final class WindowPages {
  private static final Comparator<WindowSnapshot> ORDER =
      Comparator.comparing(WindowSnapshot::key, KeyOrder.ORDER)
          .thenComparing(WindowSnapshot::window);

  private WindowPages() {}

  /** The first {@code limit} windows of the shards' {@code parts}, in key and window order. */
  public static List<WindowSnapshot> first(List<List<WindowSnapshot>> parts, int limit) {
    List<WindowSnapshot> all = new ArrayList<>();
    parts.forEach(all::addAll);
    all.sort(ORDER);
    return all.size() > limit ? new ArrayList<>(all.subList(0, limit)) : all;
  }
}
