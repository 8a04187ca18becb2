package io.eventide.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The events of a post that were refused, listed by position, at most {@code limit} of them: the
 * first ones, however many the post refused (the counts say how many). A post that refuses nothing
 * shares {@link #NONE}, so that the happy path builds nothing; so does one that lists none.
 *
 * @param limit how many are listed at most
 * @param listed the first refused events, by position
 */
public record Rejections(int limit, List<Rejection> listed) {
  public static final Rejections NONE = new Rejections(0, List.of());

  private static final Comparator<Rejection> BY_INDEX = Comparator.comparingInt(Rejection::index);

  /** The first {@code limit} of {@code refused}, in any order. */
  public static Rejections of(int limit, List<Rejection> refused) {
    if (refused.isEmpty() || limit == 0) {
      return NONE;
    }
    List<Rejection> sorted = new ArrayList<>(refused);
    sorted.sort(BY_INDEX);
    return new Rejections(limit, List.copyOf(sorted.subList(0, Math.min(limit, sorted.size()))));
  }

  public boolean isEmpty() {
    return listed.isEmpty();
  }

  /** Both lists as one, within the larger limit. */
  public Rejections plus(Rejections o) {
    if (o.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return o;
    }
    List<Rejection> both = new ArrayList<>(listed.size() + o.listed.size());
    both.addAll(listed);
    both.addAll(o.listed);
    return of(Math.max(limit, o.limit), both);
  }

  /** The same rejections, each at {@code positions} of its index: a batch's within its post. */
  public Rejections mapped(IntUnaryOperator positions) {
    if (isEmpty()) {
      return this;
    }
    List<Rejection> moved = new ArrayList<>(listed.size());
    for (Rejection r : listed) {
      moved.add(r.at(positions.applyAsInt(r.index())));
    }
    return of(limit, moved);
  }
}
