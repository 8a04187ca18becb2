package io.eventide.engine;

import io.eventide.engine.aggregate.Aggregate;
import io.eventide.engine.aggregate.InlineAggregate;
import io.eventide.engine.aggregate.NamedAggregates;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Runs Beam's windowing model for a set of keys: assigns elements to windows, merges sessions,
 * keeps watermark holds, runs the trigger state machines and emits panes. One instance is one
 * single-threaded shard: it takes no locks and must only be called from one thread at a time.
 *
 * <p>Inputs come in three kinds, as in Beam's runner: a batch of elements (per key, every element
 * is added first and the triggers are asked once afterwards), an advance of the input watermark
 * (event-time timers strictly before it fire), and a tick of processing time (processing-time
 * timers strictly before the clock fire). Each key keeps its own output watermark: the input
 * watermark held back by the key's holds and pending event-time timers.
 */
public final class EventTimeEngine {
  private final WindowingStrategy strategy;
  private final WindowFn windowFn;
  private final Aggregate<Object> aggregate;

  /** The aggregate when it keeps its accumulator in the window, else null. */
  private final InlineAggregate inline;

  /** The aggregate when it has lanes, else null: elements then add lane by lane. */
  private final NamedAggregates named;

  private final int lanes;
  private final ProcessingClock clock;
  private final PaneOutput output;
  private final TriggerMachine machine;
  private final boolean merging;
  private final KeyStateStore keys = new KeyStateStore();
  private final TimerQueue eventTimers = new TimerQueue();
  private final TimerQueue processingTimers = new TimerQueue();
  private final Env env = new Env();

  /**
   * The keys the current batch or timer round touched, in order, each once (see {@link
   * KeyState#touchIndex}); at the same index, the head and tail of the key's list of batch elements
   * (linked through {@link #batchNext}) or of round windows (through {@link #roundNext}).
   */
  private KeyState[] touched;

  private int[] touchedHead;
  private int[] touchedTail;
  private int touchedCount;

  /**
   * How many keys and round windows the scratch arrays keep room for between batches and rounds. A
   * round that fires more (every key's window ending at once) grows them for its own length only,
   * so that an engine does not hold a burst's scratch while its windows fill again.
   */
  private static final int SCRATCH_KEPT = 8192;

  private static final int SCRATCH_INITIAL = 64;
  private final List<WindowState> considered = new ArrayList<>();
  private final WatermarkHold holds;
  private final Invariants invariants;
  private final SessionMerger sessions;
  private final KeyStateCodec codec;
  private final long[] starts;
  private final long[] ends;

  /** Links each batch element to the next element of the same key (-1 ends a key's list). */
  private int[] batchNext = new int[64];

  /** The windows of the current timer round, linked per key through {@link #roundNext}. */
  private WindowState[] roundWindows;

  private int[] roundNext;
  private int roundSize;
  private long inputWatermark = Time.MIN;
  private long processingTime = Long.MIN_VALUE;

  /** The windows held over all keys, closed ones until their garbage collection included. */
  private int openWindows;

  /** How many windows may be held at once; an element that would open one more is dropped. */
  private int maxOpenWindows = Integer.MAX_VALUE;

  /** The key being processed; timers are filed under it. */
  private KeyState currentKey;

  @SuppressWarnings("unchecked")
  public EventTimeEngine(
      WindowingStrategy strategy,
      Aggregate<?> aggregate,
      ProcessingClock clock,
      PaneOutput output) {
    this.strategy = strategy;
    this.windowFn = strategy.windowFn();
    this.aggregate = (Aggregate<Object>) aggregate;
    this.inline = aggregate instanceof InlineAggregate i ? i : null;
    this.named = aggregate instanceof NamedAggregates n ? n : null;
    this.lanes = named == null ? 1 : named.size();
    this.clock = clock;
    this.output = output;
    this.machine = TriggerMachine.compile(strategy.trigger());
    this.merging = windowFn.isMerging();
    this.holds = new WatermarkHold(strategy);
    this.invariants = new Invariants(strategy, machine, holds);
    this.sessions = merging ? new SessionMerger(new MergingWindows()) : null;
    this.codec = new KeyStateCodec(this.aggregate, machine.slotCount);
    this.starts = new long[windowFn.maxWindowsPerElement()];
    this.ends = new long[windowFn.maxWindowsPerElement()];
    newTouched();
    newRound();
  }

  private void newTouched() {
    touched = new KeyState[SCRATCH_INITIAL];
    touchedHead = new int[SCRATCH_INITIAL];
    touchedTail = new int[SCRATCH_INITIAL];
  }

  private void newRound() {
    roundWindows = new WindowState[SCRATCH_INITIAL];
    roundNext = new int[SCRATCH_INITIAL];
  }

  public WindowingStrategy strategy() {
    return strategy;
  }

  public long inputWatermark() {
    return inputWatermark;
  }

  /** The key's output watermark: what decides whether its panes are late for what follows. */
  public long outputWatermark(String key) {
    KeyState k = keys.get(key);
    return k == null ? inputWatermark : outputWatermark(k);
  }

  /**
   * The lowest output watermark over all keys: how far every key's output has got. Read from an
   * index of the keys by their holds, kept as each batch or timer round settles the keys it
   * touched, rather than by visiting every key.
   */
  public long outputWatermark() {
    long min = holds.outputWatermark(inputWatermark, keys.size(), keys.all());
    if (Invariants.THOROUGH) {
      invariants.checkOutputWatermark(min, keys.all(), inputWatermark);
    }
    return min;
  }

  public int openWindowCount() {
    return openWindows;
  }

  /**
   * Bounds the windows held at once, closed ones until their garbage collection included: an
   * element that would open one more is dropped with {@link DropReason#QUOTA}, while windows
   * already open go on taking elements. Session windows that merge open none. Restored windows
   * count, so an engine restored beyond a lowered bound opens none until enough have gone.
   */
  public void limitOpenWindows(int max) {
    if (max < 0) {
      throw new IllegalArgumentException("a negative window limit: " + max);
    }
    maxOpenWindows = max;
  }

  /** The open windows of {@code key}, or of every key when it is null, ordered by key and start. */
  public List<WindowSnapshot> explain(String key) {
    return explain(key, null, null, Integer.MAX_VALUE);
  }

  /**
   * At most {@code limit} open windows of {@code key} (every key when it is null) in key ({@link
   * KeyOrder}) and window order, after the window {@code afterWindow} of {@code afterKey} (null:
   * from the first). Only the windows returned are described: a page costs a pass over the keys and
   * what it returns.
   */
  public List<WindowSnapshot> explain(String key, String afterKey, Window afterWindow, int limit) {
    // The first keys after afterKey, each with a window at least: no more keys than windows.
    PriorityQueue<KeyState> latestFirst =
        new PriorityQueue<>(Math.min(limit, 64), (a, b) -> KeyOrder.compare(b.key, a.key));
    KeyState continued = null;
    for (KeyState k : key == null ? keys.all() : single(keys.get(key))) {
      int c = afterKey == null ? 1 : KeyOrder.compare(k.key, afterKey);
      if (k.windows == null || c < 0) {
        continue;
      }
      if (c == 0) {
        continued = k;
        continue;
      }
      latestFirst.add(k);
      if (latestFirst.size() > limit) {
        latestFirst.poll();
      }
    }
    List<KeyState> chosen = new ArrayList<>(latestFirst);
    chosen.sort((a, b) -> KeyOrder.compare(a.key, b.key));
    if (continued != null) {
      chosen.add(0, continued);
    }
    List<WindowSnapshot> out = new ArrayList<>();
    for (KeyState k : chosen) {
      List<WindowState> windows = new ArrayList<>();
      for (WindowState ws = k.windows; ws != null; ws = ws.next) {
        if (k != continued || ws.window().compareTo(afterWindow) > 0) {
          windows.add(ws);
        }
      }
      windows.sort((a, b) -> a.window().compareTo(b.window()));
      for (WindowState ws : windows) {
        if (out.size() == limit) {
          return out;
        }
        out.add(explain(k, ws));
      }
    }
    return out;
  }

  private static List<KeyState> single(KeyState k) {
    return k == null ? List.of() : List.of(k);
  }

  private WindowSnapshot explain(KeyState k, WindowState ws) {
    boolean closed = machine.isClosed(ws);
    StringBuilder progress = new StringBuilder();
    if (closed) {
      progress
          .append("finished; later elements are dropped until ")
          .append(TriggerNode.time(gcTime(ws)));
    } else {
      machine.root.describe(ws, env, progress);
    }
    return new WindowSnapshot(
        k.key,
        ws.window(),
        ws.elementCount,
        ws.nonEmpty,
        ws.lastPaneIndex() + 1,
        closed,
        ws.accumulator == null ? null : aggregate.extract(ws.accumulator),
        progress.toString(),
        ws.maxTimestamp(),
        gcTime(ws),
        finalAt(ws),
        inputWatermark);
  }

  public int keyCount() {
    return keys.size();
  }

  /** Applies one batch against the current watermark; drops are reported to the output. */
  public void processBatch(ElementBatch batch) {
    checkLanes(batch);
    tick();
    int n = batch.size();
    if (n == 0) {
      return;
    }
    if (batchNext.length < n) {
      batchNext = new int[Math.max(n, batchNext.length * 2)];
    }
    for (int i = 0; i < n; i++) {
      int t = touch(keys.getOrCreate(batch.key(i)));
      if (touchedHead[t] < 0) {
        touchedHead[t] = i;
      } else {
        batchNext[touchedTail[t]] = i;
      }
      batchNext[i] = -1;
      touchedTail[t] = i;
    }
    for (int t = 0; t < touchedCount; t++) {
      KeyState k = touched[t];
      currentKey = k;
      processElements(k, touchedHead[t], batch);
      fireConsidered(k);
    }
    settleTouchedKeys();
  }

  /**
   * Moves the input watermark forward (a value not ahead of it is ignored) and fires every
   * event-time timer strictly before it. {@link Time#MAX} is the end of time.
   */
  public void advanceWatermark(long watermark) {
    tick();
    long w = Math.min(watermark, Time.MAX);
    if (w <= inputWatermark) {
      return;
    }
    inputWatermark = w;
    while (due(eventTimers, inputWatermark)) {
      while (due(eventTimers, inputWatermark)) {
        long t = eventTimers.peekTime();
        KeyState k = eventTimers.peekKey();
        WindowState ws = eventTimers.peekWindow();
        eventTimers.pop();
        if (!ws.isRemoved() && takeEventTimer(ws, t)) {
          activate(k, ws);
        }
      }
      runRound(false);
    }
  }

  /** Fires every processing-time timer strictly before the clock's current time. */
  public void fireProcessingTimers() {
    tick();
    while (due(processingTimers, processingTime)) {
      while (due(processingTimers, processingTime)) {
        long t = processingTimers.peekTime();
        KeyState k = processingTimers.peekKey();
        WindowState ws = processingTimers.peekWindow();
        processingTimers.pop();
        if (!ws.isRemoved() && ws.takeProcessingTimer(t)) {
          activate(k, ws);
        }
      }
      runRound(true);
    }
  }

  private void tick() {
    processingTime = Math.max(processingTime, clock.now());
  }

  private static boolean due(TimerQueue timers, long now) {
    return !timers.isEmpty() && timers.peekTime() < now;
  }

  // ---- elements ---------------------------------------------------------------------------

  /**
   * The one path of an element into its windows: expired windows drop it; sessions first merge the
   * proto-windows of the key's whole batch, then take the elements into the merged spans.
   */
  private void processElements(KeyState k, int head, ElementBatch batch) {
    for (int idx = head; idx >= 0; idx = batchNext[idx]) {
      int count = windowFn.assign(batch.timestamp(idx), starts, ends);
      for (int w = 0; w < count; w++) {
        long start = starts[w];
        long end = ends[w];
        if (isExpired(end - 1)) {
          output.dropped(idx, new Window(start, end), DropReason.EXPIRED);
        } else if (merging) {
          sessions.propose(idx, start, end);
        } else {
          addToWindow(k, start, end, batch, idx);
        }
      }
    }
    if (merging) {
      int proposals = sessions.mergeProposals(k);
      for (int p = 0; p < proposals; p++) {
        addToWindow(k, sessions.start(p), sessions.end(p), batch, sessions.element(p));
      }
    }
  }

  private boolean isExpired(long maxTimestamp) {
    return strategy.gcTime(maxTimestamp) < inputWatermark;
  }

  /** Adds the element to the key's window {@code [start, end)}, unless that window is closed. */
  private void addToWindow(KeyState k, long start, long end, ElementBatch batch, int idx) {
    WindowState ws = k.find(start, end);
    if (ws == null) {
      if (openWindows >= maxOpenWindows) {
        output.dropped(idx, new Window(start, end), DropReason.QUOTA);
        return;
      }
      ws = open(k, start, end);
    } else if (machine.isClosed(ws)) {
      output.dropped(idx, ws.window(), DropReason.CLOSED);
      return;
    }
    // Only merging ever takes a window out of the active set; an element puts it back.
    ws.active = true;
    if (ws.list()) {
      considered.add(ws);
    }
    long ts = batch.timestamp(idx);
    ws.nonEmpty = true;
    ws.elementCount++;
    batch.markAdded(idx, ws.maxTimestamp() < inputWatermark);
    setEventTimer(ws, gcTime(ws));
    holds.addHolds(k, ws, ts, inputWatermark);
    addValue(ws, batch, idx, ts);
    machine.root.onElement(ws, env);
  }

  /**
   * A single aggregate takes the element's one value; named aggregates take one per lane. Kept out
   * of {@link #addToWindow}, so that the hot path of a single aggregate stays as small as it was.
   */
  private void addValue(WindowState ws, ElementBatch batch, int idx, long ts) {
    if (named == null) {
      aggregate.add(ws.accumulator, batch.value(idx), batch.payload(idx), batch.volume(idx), ts);
    } else {
      addLanes((Object[]) ws.accumulator, batch, idx, ts);
    }
  }

  private void checkLanes(ElementBatch batch) {
    if (batch.lanes() != lanes) {
      throw new IllegalArgumentException(
          "a batch of " + batch.lanes() + " lanes for an aggregate of " + lanes);
    }
  }

  private void addLanes(Object[] accumulator, ElementBatch batch, int idx, long ts) {
    for (int lane = 0; lane < lanes; lane++) {
      named.add(
          accumulator,
          lane,
          batch.value(idx, lane),
          batch.payload(idx, lane),
          batch.volume(idx, lane),
          ts);
    }
  }

  /** How many lanes the batches of this engine have: one per named aggregate, else one. */
  public int lanes() {
    return lanes;
  }

  /** Adds a new window {@code [start, end)} to the key, counted against the limit. */
  private WindowState open(KeyState k, long start, long end) {
    WindowState ws = new WindowState(start, end);
    ws.accumulator = newAccumulator(ws);
    ws.slots(machine.newSlots());
    openWindows++;
    return k.add(ws);
  }

  /** Takes the window out of the key, which frees its place under the limit. */
  private void discard(KeyState k, WindowState ws) {
    k.remove(ws);
    openWindows--;
  }

  /** An empty accumulator for the window: the window itself for an inline aggregate. */
  private Object newAccumulator(WindowState ws) {
    if (inline == null) {
      return aggregate.create();
    }
    inline.clear(ws);
    return ws;
  }

  private void fireConsidered(KeyState k) {
    for (int i = 0; i < considered.size(); i++) {
      WindowState ws = considered.get(i);
      ws.unlist();
      if (machine.root.shouldFire(ws, env)) {
        emit(k, ws);
      }
    }
    considered.clear();
  }

  private long outputWatermark(KeyState k) {
    return holds.outputWatermark(k, inputWatermark);
  }

  private long gcTime(WindowState ws) {
    return strategy.gcTime(ws.maxTimestamp());
  }

  // ---- firing -----------------------------------------------------------------------------

  private void emit(KeyState k, WindowState ws) {
    machine.root.onFire(ws, env);
    boolean finished = machine.isClosed(ws);
    onTrigger(k, ws, finished);
    ws.nonEmpty = false;
    if (finished) {
      ws.accumulator = null;
      machine.root.clear(ws, env);
      ws.clearPaneInfo();
      ws.lastValue(null);
      if (merging) {
        ws.active = false;
      }
    } else if (strategy.mode() == AccumulationMode.DISCARDING) {
      ws.accumulator = newAccumulator(ws);
    }
  }

  /** Emits the window's pane if its state and the strategy call for one; says whether it did. */
  private boolean onTrigger(KeyState k, WindowState ws, boolean finished) {
    long timestamp = holds.extractAndRelease(ws, finished, inputWatermark);
    boolean empty = !ws.nonEmpty;
    if (empty
        && strategy.closingBehavior() == ClosingBehavior.FIRE_IF_NON_EMPTY
        && strategy.onTimeBehavior() == OnTimeBehavior.FIRE_IF_NON_EMPTY) {
      return false;
    }
    PaneInfo info = nextPaneInfo(k, ws, finished);
    if (!needToEmit(empty, finished, info.timing())) {
      return false;
    }
    Object value = aggregate.extract(ws.accumulator);
    Pane.Restatement restates = restatement(ws);
    AccumulationMode mode = strategy.mode();
    if (mode == AccumulationMode.RETRACTING) {
      if (ws.lastValue() != null) {
        output.pane(retraction(k, ws));
      }
      ws.lastValue(value);
    } else if (mode == AccumulationMode.ACCUMULATING
        && !finished
        && info.timing() != Timing.EARLY) {
      // The value as emitted, not a copy of the accumulator: only the next pane restates it.
      ws.keepLastValue(value);
    }
    if (!finished) {
      ws.lastPane(info.index(), info.nonSpeculativeIndex(), info.timing());
    }
    output.pane(
        new Pane(
            k.key,
            ws.window(),
            value,
            aggregate.partial(ws.accumulator),
            timestamp,
            info,
            false,
            -1,
            restates,
            finalAt(ws),
            processingTime,
            inputWatermark));
    return true;
  }

  /**
   * What the pane about to be emitted supersedes: the window's last pane when that was on time or
   * late (a figure published as settled); null after early panes only, whose figures were marked
   * speculative already. In discarding mode a pane is a delta and restates by index only.
   */
  private Pane.Restatement restatement(WindowState ws) {
    Timing last = ws.lastTiming();
    if (last == null || last == Timing.EARLY) {
      return null;
    }
    int index = ws.lastPaneIndex();
    return switch (strategy.mode()) {
      case DISCARDING -> Pane.Restatement.indexOnly(index);
      case RETRACTING -> Pane.Restatement.of(index, ws.lastValue());
      case ACCUMULATING ->
          ws.hasLastValue()
              ? Pane.Restatement.of(index, ws.lastValue())
              : Pane.Restatement.indexOnly(index);
    };
  }

  /** The record that withdraws the window's last pane. */
  private Pane retraction(KeyState k, WindowState ws) {
    PaneInfo last =
        new PaneInfo(
            ws.lastPaneIndex(),
            ws.lastNonSpeculativeIndex(),
            ws.lastTiming(),
            ws.lastPaneIndex() == 0,
            false);
    return new Pane(
        k.key,
        ws.window(),
        ws.lastValue(),
        null,
        ws.maxTimestamp(),
        last,
        true,
        ws.lastPaneIndex(),
        finalAt(ws),
        processingTime,
        inputWatermark);
  }

  private long finalAt(WindowState ws) {
    long gc = gcTime(ws);
    return gc >= Time.GLOBAL_MAX_TIMESTAMP ? Time.MAX : gc + 1;
  }

  private PaneInfo nextPaneInfo(KeyState k, WindowState ws, boolean finished) {
    boolean first = ws.lastPaneIndex() < 0;
    int index = first ? 0 : ws.lastPaneIndex() + 1;
    int nonSpeculative = first ? 0 : ws.lastNonSpeculativeIndex() + 1;
    long max = ws.maxTimestamp();
    boolean lateForOutput = max < outputWatermark(k);
    Timing lastTiming = ws.lastTiming();
    boolean onlyEarlySoFar = lastTiming == null || lastTiming == Timing.EARLY;
    Timing timing;
    if (lateForOutput || !onlyEarlySoFar) {
      timing = Timing.LATE;
    } else if (inputWatermark <= max) {
      timing = Timing.EARLY;
      nonSpeculative = -1;
    } else {
      timing = Timing.ON_TIME;
    }
    Invariants.checkTimingOrder(lastTiming, timing, ws);
    return new PaneInfo(index, nonSpeculative, timing, first, finished);
  }

  private boolean needToEmit(boolean empty, boolean finished, Timing timing) {
    return !empty
        || (timing == Timing.ON_TIME && strategy.onTimeBehavior() == OnTimeBehavior.FIRE_ALWAYS)
        || (finished && strategy.closingBehavior() == ClosingBehavior.FIRE_ALWAYS);
  }

  // ---- timers -----------------------------------------------------------------------------

  /**
   * Lists {@code k} among the touched keys unless it is already, with an empty list of elements or
   * windows, and returns its index there.
   */
  private int touch(KeyState k) {
    int t = k.touchIndex();
    if (t < touchedCount && touched[t] == k) {
      return t;
    }
    if (touchedCount == touched.length) {
      touched = Arrays.copyOf(touched, touchedCount * 2);
      touchedHead = Arrays.copyOf(touchedHead, touchedCount * 2);
      touchedTail = Arrays.copyOf(touchedTail, touchedCount * 2);
    }
    t = touchedCount++;
    touched[t] = k;
    touchedHead[t] = -1;
    k.touchIndex(t);
    return t;
  }

  private void activate(KeyState k, WindowState ws) {
    int t = touch(k);
    if (ws.list()) {
      if (roundSize == roundWindows.length) {
        roundWindows = Arrays.copyOf(roundWindows, roundSize * 2);
        roundNext = Arrays.copyOf(roundNext, roundSize * 2);
      }
      int slot = roundSize++;
      roundWindows[slot] = ws;
      roundNext[slot] = -1;
      if (touchedHead[t] < 0) {
        touchedHead[t] = slot;
      } else {
        roundNext[touchedTail[t]] = slot;
      }
      touchedTail[t] = slot;
    }
  }

  /**
   * Handles the windows whose timers fired. What happens depends only on the window's state and the
   * watermarks, not on which timer fired, so a leap past both end and garbage collection of a
   * window emits its final pane once.
   */
  private void runRound(boolean processingTimeRound) {
    for (int t = 0; t < touchedCount; t++) {
      KeyState k = touched[t];
      currentKey = k;
      long outWm = outputWatermark(k);
      for (int r = touchedHead[t]; r >= 0; r = roundNext[r]) {
        WindowState ws = roundWindows[r];
        ws.unlist();
        long max = ws.maxTimestamp();
        long gc = gcTime(ws);
        if (processingTimeRound && isExpired(max)) {
          continue;
        }
        boolean endOfWindow = inputWatermark > max && outWm <= max;
        boolean open = ws.active && !machine.isClosed(ws);
        if (inputWatermark > gc) {
          if (open && !onTrigger(k, ws, true) && ws.lastPaneIndex() >= 0) {
            output.closedWithoutPane(k.key, ws.window());
          }
          discard(k, ws);
          ws.eventTimers = 0;
          ws.clearProcessingTimers();
        } else {
          if (open && machine.root.shouldFire(ws, env)) {
            emit(k, ws);
          }
          if (endOfWindow) {
            setEventTimer(ws, gc);
          }
        }
      }
    }
    if (roundWindows.length > SCRATCH_KEPT) {
      newRound();
    } else {
      Arrays.fill(roundWindows, 0, roundSize, null);
    }
    roundSize = 0;
    settleTouchedKeys();
  }

  private void setEventTimer(WindowState ws, long time) {
    invariants.checkEventTimer(ws, time, inputWatermark);
    byte bit = time == ws.maxTimestamp() ? WindowState.TIMER_AT_END : WindowState.TIMER_AT_GC;
    if ((ws.eventTimers & bit) != 0) {
      return;
    }
    ws.eventTimers |= bit;
    eventTimers.push(time, currentKey, ws);
  }

  private static boolean takeEventTimer(WindowState ws, long time) {
    byte bit = time == ws.maxTimestamp() ? WindowState.TIMER_AT_END : WindowState.TIMER_AT_GC;
    if ((ws.eventTimers & bit) == 0) {
      return false;
    }
    ws.eventTimers &= (byte) ~bit;
    return true;
  }

  /**
   * Recomputes the output-watermark hold of every touched key and forgets empty keys. Every change
   * to a key's state ends here, which is what makes change tracking complete.
   */
  private void settleTouchedKeys() {
    for (int t = 0; t < touchedCount; t++) {
      KeyState k = touched[t];
      touched[t] = null;
      holds.recompute(k);
      if (Invariants.THOROUGH) {
        invariants.checkSettled(k, inputWatermark);
      }
      keys.settled(k);
    }
    if (touched.length > SCRATCH_KEPT) {
      newTouched();
    }
    touchedCount = 0;
    currentKey = null;
  }

  // ---- durable state ----------------------------------------------------------------------

  /** The format version written as the first byte of every key's state. */
  public static int stateFormatVersion() {
    return KeyStateCodec.VERSION;
  }

  /**
   * Turns change tracking on, for {@link #drainChanges}. Off by default, so that an engine whose
   * state lives only in memory pays nothing for it. Call it before the first batch, before or after
   * restoring keys.
   */
  public void trackChanges() {
    keys.trackChanges();
  }

  /**
   * Reports every key whose state changed since the previous drain, once: {@code changed} with its
   * encoded state while it has windows ({@code added} instead when it had not been reported or
   * restored since it was last removed), {@code removed} when its last window went and the key had
   * been reported or restored before (a key that came and went in between is not reported). Every
   * batch, watermark advance and processing-time round can change keys; drain after each to keep a
   * durable store in step. Reports nothing unless {@link #trackChanges} was called.
   */
  public void drainChanges(KeyStateChanges sink) {
    keys.drainChanges(codec, sink);
  }

  /**
   * Installs {@code key} from the state {@link #drainChanges} reported for it, with its pending
   * event-time and processing-time timers. For rebuilding an engine after a restart, together with
   * {@link #restoreInputWatermark}, in either order; an engine built from every stored key goes on
   * exactly as the one that wrote them would have (timers due at the same instant may fire in
   * another order).
   *
   * @throws IllegalStateException when the engine already holds state for the key
   * @throws IllegalArgumentException when {@code state} is of an unknown format version (see {@link
   *     #stateFormatVersion}), corrupt, or was written by an engine with another trigger
   */
  public void restoreKey(String key, byte[] state) {
    if (keys.get(key) != null) {
      throw new IllegalStateException("key '" + key + "' already has state in this engine");
    }
    KeyState k = new KeyState(key);
    codec.decode(state, k);
    for (WindowState ws = k.windows; ws != null; ws = ws.next) {
      if ((ws.eventTimers & WindowState.TIMER_AT_END) != 0) {
        eventTimers.push(ws.maxTimestamp(), k, ws);
      }
      if ((ws.eventTimers & WindowState.TIMER_AT_GC) != 0) {
        eventTimers.push(gcTime(ws), k, ws);
      }
      for (int t = 0; t < ws.processingTimerCount(); t++) {
        processingTimers.push(ws.processingTimer(t), k, ws);
      }
    }
    holds.recompute(k);
    holds.restored(k);
    if (Invariants.THOROUGH) {
      invariants.checkStored(k);
    }
    openWindows += k.windowCount();
    keys.restored(k);
  }

  /**
   * Sets the input watermark of an engine being rebuilt from durable state, firing nothing: timers
   * before it fire at the next advance past it, as they would have in the engine that wrote the
   * state.
   */
  public void restoreInputWatermark(long watermark) {
    inputWatermark = Math.min(watermark, Time.MAX);
  }

  // ---- merging ---------------------------------------------------------------------------

  /**
   * Carries everything of merging windows over to the result: accumulators, element counts, holds,
   * trigger state. A result with a new span is a new window whose pane index starts at 0; a result
   * that keeps the span of one of its parts continues that window's panes.
   */
  private void mergeWindows(KeyState k, MergeSources sources, long start, long end) {
    WindowState result = null;
    for (int i = 0; i < sources.count; i++) {
      if (sources.windows[i].sameSpan(start, end)) {
        result = sources.windows[i];
        sources.resultIsSource = true;
      }
    }
    if (result == null) {
      // A closed window of exactly this span keeps its finished bits, as Beam's state would.
      result = k.find(start, end);
      if (result == null && sources.count == 0 && openWindows >= maxOpenWindows) {
        // Proto-windows only, no window of the key among them: the merge would open one more.
        // Each of their elements is then refused where it is added.
        return;
      }
      if (result == null) {
        result = open(k, start, end);
      } else if (result.accumulator == null) {
        result.accumulator = newAccumulator(result);
      }
    }
    retractSwallowed(k, sources, result);
    mergeAccumulators(sources, result);
    holds.onMerge(k, sources, result, inputWatermark);
    boolean nonEmpty = result.nonEmpty;
    for (int i = 0; i < sources.count; i++) {
      nonEmpty |= sources.windows[i].nonEmpty;
    }
    result.nonEmpty = nonEmpty;
    long working = result.finished;
    for (int i = 0; i < sources.count; i++) {
      sources.windows[i].finished = 0;
    }
    result.finished = working;
    machine.root.onMerge(result, sources, env);
    for (int i = 0; i < sources.count; i++) {
      WindowState gone = sources.windows[i];
      if (gone != result) {
        if (gone.lastPaneIndex() >= 0) {
          output.merged(k.key, gone.window(), result.window());
        }
        gone.eventTimers = 0;
        gone.clearPaneInfo();
        gone.active = false;
        discard(k, gone);
      }
    }
    result.active = true;
    // The merge placed a garbage-collection hold; its timer releases it even when the result is
    // closed and no element arrives to set it (Beam leaks the hold there and stalls).
    setEventTimer(result, gcTime(result));
  }

  private void retractSwallowed(KeyState k, MergeSources sources, WindowState result) {
    if (strategy.mode() != AccumulationMode.RETRACTING) {
      return;
    }
    for (int i = 0; i < sources.count; i++) {
      WindowState gone = sources.windows[i];
      if (gone != result && gone.lastValue() != null) {
        output.pane(retraction(k, gone));
      }
    }
  }

  private void mergeAccumulators(MergeSources sources, WindowState result) {
    for (int i = 0; i < sources.count; i++) {
      WindowState ws = sources.windows[i];
      if (ws != result) {
        aggregate.merge(result.accumulator, ws.accumulator);
        ws.accumulator = null;
      }
    }
  }

  private final class MergingWindows implements SessionMerger.Windows {
    @Override
    public boolean canMerge(WindowState ws) {
      return ws.active && !machine.isClosed(ws);
    }

    @Override
    public void merge(KeyState k, MergeSources sources, long start, long end) {
      mergeWindows(k, sources, start, end);
    }
  }

  private final class Env implements TriggerEnv {
    @Override
    public long inputWatermark() {
      return inputWatermark;
    }

    @Override
    public long processingTime() {
      return processingTime;
    }

    @Override
    public boolean isMerging() {
      return merging;
    }

    @Override
    public void setEventTimer(WindowState window, long time) {
      EventTimeEngine.this.setEventTimer(window, time);
    }

    @Override
    public void setProcessingTimer(WindowState window, long time) {
      if (window.addProcessingTimer(time)) {
        processingTimers.push(time, currentKey, window);
      }
    }
  }
}
