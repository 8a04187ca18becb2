package io.eventide.engine;

import java.util.Arrays;

/**
 * Decides which session windows of a key merge, as Beam's {@code MergingActiveWindowSet} does: per
 * key and batch, every element proposes a proto-window; the proto-windows and the key's active
 * windows that intersect merge, transitively, into their span. What merging does to the windows'
 * state is the engine's business, asked for through {@link Windows}; this class only knows spans.
 */
final class SessionMerger {
  /** What the merger asks of the engine about a key's windows. */
  interface Windows {
    /** Whether the window takes part in merging: active, and its trigger has not finished. */
    boolean canMerge(WindowState ws);

    /**
     * Merges the state of {@code sources} into the key's window {@code [start, end)}, which may be
     * one of them, an existing closed window of that span or a new one.
     */
    void merge(KeyState k, MergeSources sources, long start, long end);
  }

  private final Windows windows;
  private final MergeSources sources = new MergeSources();
  private int protos;
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

  SessionMerger(Windows windows) {
    this.windows = windows;
  }

  /** Records the proto-window {@code [start, end)} of a batch element of the key being merged. */
  void propose(int element, long start, long end) {
    if (protos == protoElement.length) {
      int c = protos * 2;
      protoElement = Arrays.copyOf(protoElement, c);
      protoStart = Arrays.copyOf(protoStart, c);
      protoEnd = Arrays.copyOf(protoEnd, c);
      protoCandidate = Arrays.copyOf(protoCandidate, c);
    }
    protoElement[protos] = element;
    protoStart[protos] = start;
    protoEnd[protos] = end;
    protos++;
  }

  /**
   * Merges the proposed proto-windows with each other and with the key's active windows. Returns
   * how many were proposed; {@link #element}, {@link #start} and {@link #end} then tell, for each,
   * the element and the window it now belongs to, until the next proposal starts another round.
   */
  int mergeProposals(KeyState k) {
    int n = protos;
    protos = 0;
    if (n > 0) {
      mergeIntersecting(k, collectCandidates(k, n));
    }
    return n;
  }

  int element(int proposal) {
    return protoElement[proposal];
  }

  long start(int proposal) {
    return groupStart[protoCandidate[proposal]];
  }

  long end(int proposal) {
    return groupEnd[protoCandidate[proposal]];
  }

  /** The key's active windows plus the distinct proto-windows that are not one of them. */
  private int collectCandidates(KeyState k, int proposals) {
    ensureCandidates(k.windowCount() + proposals);
    int n = 0;
    for (WindowState ws = k.windows; ws != null; ws = ws.next) {
      if (windows.canMerge(ws)) {
        candStart[n] = ws.start;
        candEnd[n] = ws.end;
        candWindow[n] = ws;
        n++;
      }
    }
    for (int p = 0; p < proposals; p++) {
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
    for (int i = from; i < to; i++) {
      WindowState ws = candWindow[order[i]];
      if (ws != null) {
        sources.add(ws);
      }
    }
    windows.merge(k, sources, start, end);
    sources.reset();
  }
}
