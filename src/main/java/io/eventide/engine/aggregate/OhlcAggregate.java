package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Open-high-low-close bars: open is the price of the earliest element by event time (first added
 * wins a tie), close that of the latest (last added wins a tie), volume the sum of volumes (an
 * element without one counts as 1) and vwap the volume-weighted average price.
 */
final class OhlcAggregate implements Aggregate<OhlcAggregate.Bar> {

  static final class Bar {
    boolean empty = true;
    double open;
    long openTimestamp;
    double high;
    double low;
    double close;
    long closeTimestamp;
    final CompensatedSum volume = new CompensatedSum();
    final CompensatedSum priceVolume = new CompensatedSum();
  }

  @Override
  public String type() {
    return "ohlc";
  }

  @Override
  public Bar create() {
    return new Bar();
  }

  @Override
  public void add(Bar acc, double price, Object payload, double volume, long timestamp) {
    double weight = Double.isNaN(volume) ? 1 : volume;
    if (acc.empty) {
      acc.empty = false;
      acc.open = price;
      acc.openTimestamp = timestamp;
      acc.high = price;
      acc.low = price;
      acc.close = price;
      acc.closeTimestamp = timestamp;
    } else {
      if (timestamp < acc.openTimestamp) {
        acc.open = price;
        acc.openTimestamp = timestamp;
      }
      if (timestamp >= acc.closeTimestamp) {
        acc.close = price;
        acc.closeTimestamp = timestamp;
      }
      acc.high = Math.max(acc.high, price);
      acc.low = Math.min(acc.low, price);
    }
    acc.volume.add(weight);
    acc.priceVolume.add(price * weight);
  }

  @Override
  public void merge(Bar into, Bar from) {
    if (from.empty) {
      return;
    }
    if (into.empty) {
      into.empty = false;
      into.open = from.open;
      into.openTimestamp = from.openTimestamp;
      into.high = from.high;
      into.low = from.low;
      into.close = from.close;
      into.closeTimestamp = from.closeTimestamp;
    } else {
      // into's elements came first, so it keeps the open on a tie and yields the close.
      if (from.openTimestamp < into.openTimestamp) {
        into.open = from.open;
        into.openTimestamp = from.openTimestamp;
      }
      if (from.closeTimestamp >= into.closeTimestamp) {
        into.close = from.close;
        into.closeTimestamp = from.closeTimestamp;
      }
      into.high = Math.max(into.high, from.high);
      into.low = Math.min(into.low, from.low);
    }
    into.volume.add(from.volume);
    into.priceVolume.add(from.priceVolume);
  }

  /** {@code {open, high, low, close, volume, vwap}}; all null but volume 0 when empty. */
  @Override
  public Object extract(Bar acc) {
    Map<String, Object> bar = new LinkedHashMap<>();
    bar.put("open", price(acc, acc.open));
    bar.put("high", price(acc, acc.high));
    bar.put("low", price(acc, acc.low));
    bar.put("close", price(acc, acc.close));
    bar.put("volume", OutputNumbers.of(acc.volume.value()));
    bar.put("vwap", vwap(acc));
    return bar;
  }

  /**
   * The bar plus what combining two bars needs beyond it: the event times of open and close, and
   * the price-volume sum behind vwap.
   */
  @Override
  public boolean needsPartialToCombine() {
    return true;
  }

  @Override
  public Object partial(Bar acc) {
    Map<String, Object> partial = new LinkedHashMap<>();
    partial.put("open", price(acc, acc.open));
    partial.put("openTs", acc.empty ? null : acc.openTimestamp);
    partial.put("high", price(acc, acc.high));
    partial.put("low", price(acc, acc.low));
    partial.put("close", price(acc, acc.close));
    partial.put("closeTs", acc.empty ? null : acc.closeTimestamp);
    partial.put("volume", OutputNumbers.of(acc.volume.value()));
    partial.put("priceVolume", OutputNumbers.of(acc.priceVolume.value()));
    return partial;
  }

  private static Number price(Bar acc, double price) {
    return acc.empty ? null : OutputNumbers.of(price);
  }

  private static Number vwap(Bar acc) {
    double volume = acc.volume.value();
    // Elements that all traded zero volume have no weighted average price.
    return volume == 0 ? null : OutputNumbers.of(acc.priceVolume.value() / volume);
  }

  @Override
  public void write(Bar acc, DataOutput out) throws IOException {
    out.writeBoolean(acc.empty);
    if (!acc.empty) {
      CompactEncoding.writeDouble(acc.open, out);
      CompactEncoding.writeSigned(acc.openTimestamp, out);
      CompactEncoding.writeDouble(acc.high, out);
      CompactEncoding.writeDouble(acc.low, out);
      CompactEncoding.writeDouble(acc.close, out);
      CompactEncoding.writeSigned(acc.closeTimestamp, out);
    }
    acc.volume.write(out);
    acc.priceVolume.write(out);
  }

  @Override
  public Bar read(DataInput in) throws IOException {
    Bar acc = new Bar();
    acc.empty = in.readBoolean();
    if (!acc.empty) {
      acc.open = CompactEncoding.readDouble(in);
      acc.openTimestamp = CompactEncoding.readSigned(in);
      acc.high = CompactEncoding.readDouble(in);
      acc.low = CompactEncoding.readDouble(in);
      acc.close = CompactEncoding.readDouble(in);
      acc.closeTimestamp = CompactEncoding.readSigned(in);
    }
    acc.volume.read(in);
    acc.priceVolume.read(in);
    return acc;
  }

  @Override
  public boolean needsNumber() {
    return true;
  }
}
