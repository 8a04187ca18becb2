package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

/**
 * Approximate quantiles of the elements' numbers, from a KLL sketch. The output maps each fraction,
 * rendered as a plain decimal string ("0.5", "0.99"), to its quantile, in the configured order.
 */
final class QuantilesAggregate implements Aggregate<QuantilesAggregate.Quantiles> {

  static final int DEFAULT_K = KllDoublesSketch.DEFAULT_K;
  static final int MIN_K = 8;
  static final int MAX_K = KllDoublesSketch.MAX_K;
  static final List<Double> DEFAULT_FRACTIONS = List.of(0.5, 0.9, 0.99);

  /** Holds no sketch until the first element, so that empty windows cost nothing. */
  static final class Quantiles {
    KllDoublesSketch sketch;
  }

  private final int k;
  private final double[] fractions;
  private final String[] labels;
  private final String emptyPartial;

  QuantilesAggregate(int k, List<Double> fractions) {
    if (k < MIN_K || k > MAX_K) {
      throw new IllegalArgumentException(
          "quantiles sketchSize (KLL k) must be between " + MIN_K + " and " + MAX_K + ", got " + k);
    }
    this.k = k;
    this.fractions = new double[fractions.size()];
    this.labels = new String[fractions.size()];
    for (int i = 0; i < this.fractions.length; i++) {
      double fraction = fractions.get(i);
      if (!(fraction >= 0 && fraction <= 1)) {
        throw new IllegalArgumentException(
            "quantiles fractions must be between 0 and 1, got " + fraction);
      }
      this.fractions[i] = fraction;
      this.labels[i] = BigDecimal.valueOf(fraction).stripTrailingZeros().toPlainString();
    }
    this.emptyPartial = encode(KllDoublesSketch.newHeapInstance(k));
  }

  @Override
  public String type() {
    return "quantiles";
  }

  @Override
  public Quantiles create() {
    return new Quantiles();
  }

  @Override
  public void add(Quantiles acc, double value, Object payload, double volume, long timestamp) {
    if (acc.sketch == null) {
      acc.sketch = KllDoublesSketch.newHeapInstance(k);
    }
    acc.sketch.update(value);
  }

  @Override
  public void merge(Quantiles into, Quantiles from) {
    if (from.sketch == null) {
      return;
    }
    if (into.sketch == null) {
      into.sketch = from.sketch;
    } else {
      into.sketch.merge(from.sketch);
    }
  }

  @Override
  public Object extract(Quantiles acc) {
    double[] quantiles =
        acc.sketch == null
            ? null
            : acc.sketch.getQuantiles(fractions, QuantileSearchCriteria.INCLUSIVE);
    Map<String, Object> result = new LinkedHashMap<>();
    for (int i = 0; i < labels.length; i++) {
      result.put(labels[i], quantiles == null ? null : OutputNumbers.of(quantiles[i]));
    }
    return result;
  }

  /** Base64 of the serialized KLL sketch. */
  @Override
  public boolean needsPartialToCombine() {
    return true;
  }

  @Override
  public Object partial(Quantiles acc) {
    return acc.sketch == null ? emptyPartial : encode(acc.sketch);
  }

  private static String encode(KllDoublesSketch sketch) {
    return Base64.getEncoder().encodeToString(sketch.toByteArray());
  }

  /** The serialized sketch, or nothing for an accumulator that has not seen a number yet. */
  @Override
  public void write(Quantiles acc, DataOutput out) throws IOException {
    out.writeBoolean(acc.sketch != null);
    if (acc.sketch != null) {
      CompactEncoding.writeBytes(acc.sketch.toByteArray(), out);
    }
  }

  @Override
  public Quantiles read(DataInput in) throws IOException {
    Quantiles acc = new Quantiles();
    if (in.readBoolean()) {
      acc.sketch = KllDoublesSketch.heapify(Memory.wrap(CompactEncoding.readBytes(in)));
    }
    return acc;
  }

  @Override
  public boolean needsNumber() {
    return true;
  }
}
