package io.eventide.engine;

import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.CompactEncoding;
import io.eventide.engine.aggregate.InlineAggregate;
import io.eventide.engine.aggregate.PlainValueCodec;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The durable form of one key's state: a version byte, then the key's windows, each with everything
 * {@link WindowState} keeps across batches. The key itself is not included (the store keys the blob
 * by it), nor the output-watermark hold, which is recomputed from the windows.
 *
 * <p>Version 1, per window: start (zig-zag varint) and length (varint); a flags byte; the element
 * count; the holds present, relative to the start; the trigger's finished bits, slots and pending
 * processing-time timers; the last pane's index, non-speculative index and timing; then the
 * accumulator and the last value, when present. Pending event-time timers are flag bits, as in
 * {@link WindowState#eventTimers}, since their times follow from the window.
 *
 * <p>The last value was kept in retracting mode only (never null there); since restatements (issue
 * 35) accumulating mode keeps it too after an on-time or late pane, null included, for the next
 * pane's {@code restates}. The layout is unchanged, so the version stays 1 both ways: an earlier
 * engine ignores the value in accumulating mode, and a window stored by one without it restates its
 * last pane by index only.
 */
final class KeyStateCodec {
  static final int VERSION = 1;

  private static final int NON_EMPTY = 1;
  private static final int ACTIVE = 1 << 1;
  private static final int HAS_ACCUMULATOR = 1 << 2;
  private static final int HAS_ELEMENT_HOLD = 1 << 3;
  private static final int HAS_EXTRA_HOLD = 1 << 4;
  private static final int HAS_LAST_VALUE = 1 << 5;
  private static final int TIMER_AT_END = 1 << 6;
  private static final int TIMER_AT_GC = 1 << 7;

  private static final Timing[] TIMINGS = Timing.values();

  private final Aggregate<Object> aggregate;

  /** The aggregate when it keeps its accumulator in the window, else null. */
  private final InlineAggregate inline;

  private final int slotCount;

  /** Reused across keys: a blob costs one copy of its bytes. */
  private final StateBuffer buffer = new StateBuffer(256);

  private final DataOutputStream out = new DataOutputStream(buffer);

  KeyStateCodec(Aggregate<Object> aggregate, int slotCount) {
    this.aggregate = aggregate;
    this.inline = (Aggregate<?>) aggregate instanceof InlineAggregate i ? i : null;
    this.slotCount = slotCount;
  }

  byte[] encode(KeyState k) {
    buffer.reset();
    try {
      out.writeByte(VERSION);
      CompactEncoding.writeUnsigned(k.windowCount(), out);
      for (WindowState ws = k.windows; ws != null; ws = ws.next) {
        writeWindow(ws);
      }
    } catch (IOException e) {
      // Writing to a byte array does not fail.
      throw new UncheckedIOException(e);
    }
    return buffer.toByteArray();
  }

  private void writeWindow(WindowState ws) throws IOException {
    CompactEncoding.writeSigned(ws.start, out);
    CompactEncoding.writeUnsigned(ws.end - ws.start, out);
    out.writeByte(flags(ws));
    CompactEncoding.writeUnsigned(ws.elementCount, out);
    if (ws.elementHold != WindowState.NO_HOLD) {
      CompactEncoding.writeSigned(ws.elementHold - ws.start, out);
    }
    if (ws.extraHold != WindowState.NO_HOLD) {
      CompactEncoding.writeSigned(ws.extraHold - ws.start, out);
    }
    CompactEncoding.writeUnsigned(ws.finished, out);
    // A window has slots exactly when the trigger has any.
    CompactEncoding.writeUnsigned(slotCount, out);
    for (int i = 0; i < slotCount; i++) {
      CompactEncoding.writeSigned(ws.slots()[i], out);
    }
    int timers = ws.processingTimerCount();
    CompactEncoding.writeUnsigned(timers, out);
    for (int i = 0; i < timers; i++) {
      CompactEncoding.writeSigned(ws.processingTimer(i), out);
    }
    // Pane indices are -1 before the first pane.
    CompactEncoding.writeUnsigned(ws.lastPaneIndex() + 1L, out);
    CompactEncoding.writeUnsigned(ws.lastNonSpeculativeIndex() + 1L, out);
    Timing lastTiming = ws.lastTiming();
    out.writeByte(lastTiming == null ? 0 : lastTiming.ordinal() + 1);
    if (ws.accumulator != null) {
      aggregate.write(ws.accumulator, out);
    }
    if (ws.hasLastValue()) {
      PlainValueCodec.write(ws.lastValue(), out);
    }
  }

  private static int flags(WindowState ws) {
    int flags = 0;
    flags |= ws.nonEmpty ? NON_EMPTY : 0;
    flags |= ws.active ? ACTIVE : 0;
    flags |= ws.accumulator != null ? HAS_ACCUMULATOR : 0;
    flags |= ws.elementHold != WindowState.NO_HOLD ? HAS_ELEMENT_HOLD : 0;
    flags |= ws.extraHold != WindowState.NO_HOLD ? HAS_EXTRA_HOLD : 0;
    flags |= ws.hasLastValue() ? HAS_LAST_VALUE : 0;
    flags |= (ws.eventTimers & WindowState.TIMER_AT_END) != 0 ? TIMER_AT_END : 0;
    flags |= (ws.eventTimers & WindowState.TIMER_AT_GC) != 0 ? TIMER_AT_GC : 0;
    return flags;
  }

  /**
   * Adds the windows encoded in {@code state} to {@code k}.
   *
   * @throws IllegalArgumentException when the state is of an unknown format version, truncated,
   *     corrupt, or was written by an engine with another trigger
   */
  void decode(byte[] state, KeyState k) {
    if (state.length == 0 || state[0] != VERSION) {
      throw new IllegalArgumentException(
          "state of key '"
              + k.key
              + "' has format version "
              + (state.length == 0 ? "(none: empty state)" : Integer.toString(state[0] & 0xFF))
              + "; this engine reads version "
              + VERSION);
    }
    ByteArrayInputStream bytes = new ByteArrayInputStream(state, 1, state.length - 1);
    DataInputStream in = new DataInputStream(bytes);
    try {
      int windows = CompactEncoding.readCount(in);
      if (windows == 0) {
        throw new IOException("no windows");
      }
      for (int i = 0; i < windows; i++) {
        k.add(readWindow(in));
      }
      if (bytes.available() > 0) {
        throw new IOException(bytes.available() + " bytes left over");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("corrupt state of key '" + k.key + "': " + e, e);
    }
  }

  private WindowState readWindow(DataInputStream in) throws IOException {
    long start = CompactEncoding.readSigned(in);
    WindowState ws = new WindowState(start, start + CompactEncoding.readUnsigned(in));
    int flags = in.readUnsignedByte();
    ws.nonEmpty = (flags & NON_EMPTY) != 0;
    ws.active = (flags & ACTIVE) != 0;
    ws.elementCount = CompactEncoding.readCount(in);
    if ((flags & HAS_ELEMENT_HOLD) != 0) {
      ws.elementHold = start + CompactEncoding.readSigned(in);
    }
    if ((flags & HAS_EXTRA_HOLD) != 0) {
      ws.extraHold = start + CompactEncoding.readSigned(in);
    }
    ws.eventTimers =
        (byte)
            (((flags & TIMER_AT_END) != 0 ? WindowState.TIMER_AT_END : 0)
                | ((flags & TIMER_AT_GC) != 0 ? WindowState.TIMER_AT_GC : 0));
    ws.finished = CompactEncoding.readUnsigned(in);
    int slots = CompactEncoding.readCount(in);
    if (slots != slotCount) {
      throw new IOException(slots + " trigger slots where this engine's trigger has " + slotCount);
    }
    if (slots > 0) {
      long[] values = new long[slots];
      for (int i = 0; i < slots; i++) {
        values[i] = CompactEncoding.readSigned(in);
      }
      ws.slots(values);
    }
    int timers = CompactEncoding.readCount(in);
    for (int i = 0; i < timers; i++) {
      ws.addProcessingTimer(CompactEncoding.readSigned(in));
    }
    int lastPaneIndex = CompactEncoding.readCount(in) - 1;
    int lastNonSpeculativeIndex = CompactEncoding.readCount(in) - 1;
    int timing = in.readUnsignedByte();
    if (timing > TIMINGS.length) {
      throw new IOException("unknown pane timing " + timing);
    }
    ws.lastPane(lastPaneIndex, lastNonSpeculativeIndex, timing == 0 ? null : TIMINGS[timing - 1]);
    if ((flags & HAS_ACCUMULATOR) != 0) {
      ws.accumulator = readAccumulator(in, ws);
    }
    if ((flags & HAS_LAST_VALUE) != 0) {
      ws.keepLastValue(PlainValueCodec.read(in));
    }
    return ws;
  }

  private Object readAccumulator(DataInputStream in, WindowState ws) throws IOException {
    if (inline == null) {
      return aggregate.read(in);
    }
    inline.readInto(in, ws);
    return ws;
  }
}
