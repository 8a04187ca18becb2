package io.eventide.engine.aggregate;

import java.util.List;
import java.util.SplittableRandom;

/** One input element as the engine hands it to {@link Aggregate#add}, plus folding helpers. */
record Element(double value, Object payload, double volume, long timestamp) {

  static Element number(double value, long timestamp) {
    return new Element(value, value, Double.NaN, timestamp);
  }

  static Element payload(Object payload, long timestamp) {
    return new Element(Double.NaN, payload, Double.NaN, timestamp);
  }

  static Element trade(double price, double volume, long timestamp) {
    return new Element(price, price, volume, timestamp);
  }

  <A> void addTo(Aggregate<A> aggregate, A acc) {
    aggregate.add(acc, value, aggregate.usesPayload() ? payload : null, volume, timestamp);
  }

  /** All elements added, in order, to one accumulator. */
  static <A> A fold(Aggregate<A> aggregate, List<Element> elements) {
    A acc = aggregate.create();
    for (Element element : elements) {
      element.addTo(aggregate, acc);
    }
    return acc;
  }

  /**
   * The elements cut at random points into consecutive runs, each folded into its own accumulator,
   * and the runs merged back in order along a random binary tree (so that both associativity and
   * the into-before-from order of merge are exercised).
   */
  static <A> A foldInRandomPieces(
      Aggregate<A> aggregate, List<Element> elements, SplittableRandom random) {
    if (elements.isEmpty() || random.nextInt(4) == 0) {
      return fold(aggregate, elements);
    }
    int cut = random.nextInt(elements.size() + 1);
    A left = foldInRandomPieces(aggregate, elements.subList(0, cut), random);
    A right = foldInRandomPieces(aggregate, elements.subList(cut, elements.size()), random);
    aggregate.merge(left, right);
    return left;
  }

  static Object extract(Aggregate<?> aggregate, List<Element> elements) {
    return extractFolded(aggregate, elements);
  }

  private static <A> Object extractFolded(Aggregate<A> aggregate, List<Element> elements) {
    return aggregate.extract(fold(aggregate, elements));
  }
}
