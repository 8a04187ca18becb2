package io.eventide.engine;

import io.eventide.engine.aggregate.Aggregate;
import java.util.Arrays;

/**
 * The merging half of element processing for session windows. Per key and batch: every element
 * opens a proto-window; the proto-windows and the key's active windows that intersect merge,
 * transitively, into their span; then the elements are added to the merged windows.
 *
 * <p>Merging carries everything over to the result: accumulators, element counts, holds, trigger
 * state. A result with a new span is a new window whose pane index starts at 0; a result that keeps
 * the span of one of its parts continues that window's panes.
 */
final class SessionMerger {
  private final EventTimeEngine engine;
  private int[] protoElement = new int[8];
  private long[] protoStart = new long[8];
  private long[] protoEnd = new long[8];

  /** For each proto-window: the candidate it became, then the span it was merged into. */
  private int[] protoCandidate = new int[8];

  private long[] candStart = new long[8];
  private long[] candEnd = new long[8];
  private WindowState[] candWindow = new WindowState[8];
  private Integer[] order = new Integer[8];
  private long[] groupStart = new long[8];
  private long[] groupEnd = new long[8];
  private final long[] one = new long[1];
  private final long[] oneEnd = new long[1];

  SessionMerger(EventTimeEngine engine) {
    this.engine = engine;
  }

  void process(KeyState k, ElementBatch batch) {
    int protos = collectProtoWindows(k, batch);
    if (protos == 0) {
      return;
    }
    int candidates = collectCandidates(k, protos);
    mergeIntersecting(k, candidates);
    int s = engine.nextStamp();
    engine.clearConsidered();
    for (int p = 0; p < protos; p++) {
      int c = protoCandidate[p];
      long start = groupStart[c];
      long end = groupEnd[c];
      WindowState ws = k.find(start, end);
      if (ws == null) {
        ws = k.add(engine.newWindow(start, end));
      } else if (engine.isClosed(ws)) {
        engine.output().dropped(protoElement[p], ws.window(), DropReason.CLOSED);
        continue;
      }
      ws.active = true;
      engine.consider(ws, s);
      engine.addElement(k, ws, batch, protoElement[p]);
    }
  }

  private int collectProtoWindows(KeyState k, ElementBatch batch) {
    int n = k.batchCount;
    if (protoElement.length < n) {
      protoElement = Arrays.copyOf(protoElement, n);
      protoStart = Arrays.copyOf(protoStart, n);
      protoEnd = Arrays.copyOf(protoEnd, n);
      protoCandidate = Arrays.copyOf(protoCandidate, n);
    }
    int protos = 0;
    for (int idx = k.batchHead; idx >= 0; idx = engine.nextInBatch(idx)) {
      engine.strategy().windowFn().assign(batch.timestamp(idx), one, oneEnd);
      if (engine.isExpired(oneEnd[0] - 1)) {
        engine.output().dropped(idx, new Window(one[0], oneEnd[0]), DropReason.EXPIRED);
        continue;
      }
      protoElement[protos] = idx;
      protoStart[protos] = one[0];
      protoEnd[protos] = oneEnd[0];
      protos++;
    }
    return protos;
  }

  /** The key's active windows plus the distinct proto-windows that are not one of them. */
  private int collectCandidates(KeyState k, int protos) {
    ensureCandidates(k.windowCount + protos);
    int n = 0;
    for (int i = 0; i < k.windowCount; i++) {
      WindowState ws = k.windows[i];
      if (ws.active && !engine.isClosed(ws)) {
        candStart[n] = ws.start;
        candEnd[n] = ws.end;
        candWindow[n] = ws;
        n++;
      }
    }
    for (int p = 0; p < protos; p++) {
      int found = -1;
      for (int c = 0; c < n; c++) {
        if (candStart[c] == protoStart[p] && candEnd[c] == protoEnd[p]) {
          found = c;
          break;
        }
      }
      if (found < 0) {
        candStart[n] = protoStart[p];
        candEnd[n] = protoEnd[p];
        candWindow[n] = null;
        found = n++;
      }
      protoCandidate[p] = found;
    }
    return n;
  }

  private void ensureCandidates(int n) {
    if (candStart.length < n) {
      int c = Math.max(n, candStart.length * 2);
      candStart = Arrays.copyOf(candStart, c);
      candEnd = Arrays.copyOf(candEnd, c);
      candWindow = Arrays.copyOf(candWindow, c);
      order = Arrays.copyOf(order, c);
      groupStart = Arrays.copyOf(groupStart, c);
      groupEnd = Arrays.copyOf(groupEnd, c);
    }
  }

  /**
   * Sorts candidates by start and sweeps: a candidate that starts before the running span ends
   * joins it. Each group of two or more is merged; every candidate learns its group's span.
   */
  private void mergeIntersecting(KeyState k, int n) {
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(
        order,
        0,
        n,
        (a, b) -> {
          int c = Long.compare(candStart[a], candStart[b]);
          return c != 0 ? c : Long.compare(candEnd[a], candEnd[b]);
        });
    int groupFirst = 0;
    long spanStart = candStart[order[0]];
    long spanEnd = candEnd[order[0]];
    for (int i = 1; i <= n; i++) {
      if (i < n && candStart[order[i]] < spanEnd) {
        spanEnd = Math.max(spanEnd, candEnd[order[i]]);
        continue;
      }
      closeGroup(k, groupFirst, i, spanStart, spanEnd);
      if (i < n) {
        groupFirst = i;
        spanStart = candStart[order[i]];
        spanEnd = candEnd[order[i]];
      }
    }
  }

  private void closeGroup(KeyState k, int from, int to, long start, long end) {
    for (int i = from; i < to; i++) {
      groupStart[order[i]] = start;
      groupEnd[order[i]] = end;
    }
    if (to - from > 1) {
      merge(k, from, to, start, end);
    }
  }

  private void merge(KeyState k, int from, int to, long start, long end) {
    WindowState result = null;
    MergeSources sources = engine.mergeSources();
    sources.reset();
    for (int i = from; i < to; i++) {
      WindowState ws = candWindow[order[i]];
      if (ws != null) {
        sources.add(ws);
        if (ws.sameSpan(start, end)) {
          result = ws;
          sources.resultIsSource = true;
        }
      }
    }
    if (result == null) {
      // A closed window of exactly this span keeps its finished bits, as Beam's state would.
      result = k.find(start, end);
      if (result == null) {
        result = k.add(engine.newWindow(start, end));
      } else if (result.accumulator == null) {
        result.accumulator = engine.aggregate().create();
      }
    }
    retractSwallowed(k, sources, result);
    mergeAccumulators(sources, result);
    mergeHolds(k, sources, result);
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
    engine.machine().root.onMerge(result, sources, engine.env());
    for (int i = 0; i < sources.count; i++) {
      WindowState gone = sources.windows[i];
      if (gone != result) {
        if (gone.lastPaneIndex >= 0) {
          engine.output().merged(k.key, gone.window(), result.window());
        }
        gone.eventTimers = 0;
        gone.clearPaneInfo();
        gone.active = false;
        k.remove(gone);
      }
    }
    result.active = true;
    // The merge placed a garbage-collection hold; its timer releases it even when the result is
    // closed and no element arrives to set it (Beam leaks the hold there and stalls).
    engine.setEventTimer(result, engine.gcTime(result));
    sources.reset();
  }

  private void retractSwallowed(KeyState k, MergeSources sources, WindowState result) {
    if (engine.strategy().mode() != AccumulationMode.RETRACTING) {
      return;
    }
    for (int i = 0; i < sources.count; i++) {
      WindowState gone = sources.windows[i];
      if (gone != result && gone.lastValue != null) {
        engine.output().pane(engine.retraction(k, gone));
      }
    }
  }

  private void mergeAccumulators(MergeSources sources, WindowState result) {
    Aggregate<Object> aggregate = engine.aggregate();
    for (int i = 0; i < sources.count; i++) {
      WindowState ws = sources.windows[i];
      if (ws != result) {
        aggregate.merge(result.accumulator, ws.accumulator);
        ws.accumulator = null;
      }
    }
  }

  private void mergeHolds(KeyState k, MergeSources sources, WindowState result) {
    TimestampCombiner combiner = engine.strategy().timestampCombiner();
    int n = sources.count;
    boolean nothingToMerge =
        n == 0 || (n == 1 && sources.resultIsSource && combiner == TimestampCombiner.EARLIEST);
    if (!nothingToMerge) {
      if (combiner == TimestampCombiner.END_OF_WINDOW) {
        // The hold depends only on the window: drop the parts' holds and hold at the new end.
        for (int i = 0; i < n; i++) {
          sources.windows[i].elementHold = WindowState.NO_HOLD;
        }
        engine.addElementHold(k, result, result.maxTimestamp());
      } else {
        long merged = WindowState.NO_HOLD;
        for (int i = 0; i < n; i++) {
          WindowState ws = sources.windows[i];
          merged = engine.combineHolds(merged, ws.elementHold);
          ws.elementHold = WindowState.NO_HOLD;
        }
        if (merged != WindowState.NO_HOLD) {
          result.elementHold = engine.combineHolds(result.elementHold, merged);
        }
      }
    }
    for (int i = 0; i < n; i++) {
      sources.windows[i].extraHold = WindowState.NO_HOLD;
    }
    engine.addGcHold(result, false);
  }
}
