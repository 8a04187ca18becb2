package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Base64;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;

/**
 * The approximate number of distinct payloads, from an HLL sketch. Integral numbers are hashed as
 * longs so that 1 and 1.0 count once; strings as strings; anything else by its {@code toString()}.
 * Null and empty-string payloads are not counted (DataSketches ignores empty input).
 *
 * <p>The value is the sketch's composite estimate rather than its HIP estimate: HIP depends on the
 * order of updates and is lost in a union, whereas the composite estimate depends only on the
 * sketch's registers, so a merged accumulator reports exactly what a single one would.
 */
final class DistinctCountAggregate implements Aggregate<DistinctCountAggregate.Distinct> {

  static final int DEFAULT_LG_K = 12;
  static final int MIN_LG_K = 4;
  static final int MAX_LG_K = 21;

  /** Holds no sketch until the first element, so that empty windows cost nothing. */
  static final class Distinct {
    HllSketch sketch;
  }

  private final int lgK;
  private final String emptyPartial;

  DistinctCountAggregate(int lgK) {
    if (lgK < MIN_LG_K || lgK > MAX_LG_K) {
      throw new IllegalArgumentException(
          "distinctCount sketchSize (HLL lgK) must be between "
              + MIN_LG_K
              + " and "
              + MAX_LG_K
              + ", got "
              + lgK);
    }
    this.lgK = lgK;
    this.emptyPartial = encode(new HllSketch(lgK));
  }

  @Override
  public String type() {
    return "distinctCount";
  }

  @Override
  public Distinct create() {
    return new Distinct();
  }

  @Override
  public void add(Distinct acc, double value, Object payload, double volume, long timestamp) {
    if (payload == null) {
      return;
    }
    if (acc.sketch == null) {
      acc.sketch = new HllSketch(lgK);
    }
    update(acc.sketch, payload);
  }

  private static void update(HllSketch sketch, Object payload) {
    if (payload instanceof Long
        || payload instanceof Integer
        || payload instanceof Short
        || payload instanceof Byte) {
      sketch.update(((Number) payload).longValue());
    } else if (payload instanceof Number number) {
      double d = number.doubleValue();
      // Below 2^63 in magnitude an integral double converts to long exactly.
      if (d == Math.rint(d) && Math.abs(d) < 0x1p63) {
        sketch.update((long) d);
      } else {
        sketch.update(d);
      }
    } else if (payload instanceof String string) {
      sketch.update(string);
    } else {
      sketch.update(payload.toString());
    }
  }

  @Override
  public void merge(Distinct into, Distinct from) {
    if (from.sketch == null) {
      return;
    }
    if (into.sketch == null) {
      into.sketch = from.sketch;
      return;
    }
    Union union = new Union(lgK);
    union.update(into.sketch);
    union.update(from.sketch);
    into.sketch = union.getResult(TgtHllType.HLL_4);
  }

  @Override
  public Object extract(Distinct acc) {
    return acc.sketch == null ? 0L : Math.round(acc.sketch.getCompositeEstimate());
  }

  /** Base64 of the compact serialized HLL sketch. */
  @Override
  public boolean needsPartialToCombine() {
    return true;
  }

  @Override
  public Object partial(Distinct acc) {
    return acc.sketch == null ? emptyPartial : encode(acc.sketch);
  }

  private static String encode(HllSketch sketch) {
    return Base64.getEncoder().encodeToString(sketch.toCompactByteArray());
  }

  /**
   * The sketch in its updatable form, or nothing for an accumulator that has not seen a payload
   * yet. The compact form would do for the estimate, but reading it back re-inserts the coupons, so
   * the copy's hash table, and with it the serialized partial, would no longer match the
   * original's.
   */
  @Override
  public void write(Distinct acc, DataOutput out) throws IOException {
    out.writeBoolean(acc.sketch != null);
    if (acc.sketch != null) {
      CompactEncoding.writeBytes(acc.sketch.toUpdatableByteArray(), out);
    }
  }

  @Override
  public Distinct read(DataInput in) throws IOException {
    Distinct acc = new Distinct();
    if (in.readBoolean()) {
      acc.sketch = HllSketch.heapify(CompactEncoding.readBytes(in));
    }
    return acc;
  }

  @Override
  public boolean needsNumber() {
    return false;
  }

  @Override
  public boolean usesPayload() {
    return true;
  }
}
