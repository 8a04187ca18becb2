package io.eventide.engine;

import java.time.Instant;

/**
 * One node of a compiled trigger tree. Nodes are shared by every window; all per-window state
 * (finished bits, counters, target times) lives in {@link WindowState}, addressed by the node's
 * {@link #index} and {@link #slot}.
 *
 * <p>The split into shouldFire (a pure question) and onFire (the transition) lets the runner ask
 * every window first and fire afterwards, as Beam's runner does.
 */
abstract class TriggerNode {
  static final long NO_TIME = Long.MIN_VALUE;

  final int index;
  final long bit;
  final TriggerNode[] children;

  /** The finished bits of this node and all its descendants. */
  final long subtreeMask;

  /** This node's slot in {@link WindowState#slots()}, or -1 when it keeps no state. */
  final int slot;

  TriggerNode(int index, TriggerNode[] children, int slot) {
    this.index = index;
    this.bit = 1L << index;
    this.children = children;
    this.slot = slot;
    long mask = bit;
    for (TriggerNode c : children) {
      mask |= c.subtreeMask;
    }
    this.subtreeMask = mask;
  }

  abstract void onElement(WindowState w, TriggerEnv env);

  abstract void onMerge(WindowState w, MergeSources sources, TriggerEnv env);

  abstract boolean shouldFire(WindowState w, TriggerEnv env);

  abstract void onFire(WindowState w, TriggerEnv env);

  /** Appends this node's progress in words and numbers, for explaining a window. */
  abstract void describe(WindowState w, TriggerEnv env, StringBuilder out);

  static String time(long t) {
    if (t >= Time.MAX) {
      return "the end of time";
    }
    if (t <= Time.MIN) {
      return "the beginning of time";
    }
    return Instant.ofEpochMilli(t).toString();
  }

  /** "on time when the watermark passes X; the watermark is Y". */
  static void describeEndOfWindow(WindowState w, TriggerEnv env, StringBuilder out) {
    out.append("on time when the watermark passes ")
        .append(time(w.maxTimestamp()))
        .append("; the watermark is ")
        .append(time(env.inputWatermark()));
  }

  final void describeChildren(WindowState w, TriggerEnv env, StringBuilder out) {
    for (int i = 0; i < children.length; i++) {
      if (i > 0) {
        out.append("; ");
      }
      children[i].describe(w, env, out);
      if (children[i].isFinished(w)) {
        out.append(" (done)");
      }
    }
  }

  /** Forgets the pane this node was tracking; finished bits stay. */
  void clear(WindowState w, TriggerEnv env) {
    for (TriggerNode c : children) {
      c.clear(w, env);
    }
  }

  final boolean isFinished(WindowState w) {
    return (w.finished & bit) != 0;
  }

  final void setFinished(WindowState w, boolean finished) {
    w.finished = finished ? w.finished | bit : w.finished & ~bit;
  }

  /** Makes this subtree new again: unfinished and cleared. */
  final void resetTree(WindowState w, TriggerEnv env) {
    w.finished &= ~subtreeMask;
    clear(w, env);
  }

  final TriggerNode firstUnfinishedChild(WindowState w) {
    for (TriggerNode c : children) {
      if (!c.isFinished(w)) {
        return c;
      }
    }
    return null;
  }

  static boolean endOfWindowReached(WindowState w, TriggerEnv env) {
    return env.inputWatermark() > w.maxTimestamp();
  }

  /** Folds the merging windows' counters into the result's slot by addition. */
  final void mergeSum(WindowState w, MergeSources sources) {
    if (sources.count == 0 || (sources.count == 1 && sources.resultIsSource)) {
      return;
    }
    long total = sources.resultIsSource ? 0 : w.slots()[slot];
    for (int i = 0; i < sources.count; i++) {
      WindowState s = sources.windows[i];
      total += s.slots()[slot];
      s.slots()[slot] = 0;
    }
    w.slots()[slot] = total;
  }

  /** Folds the merging windows' target times into the result's slot, keeping the earliest. */
  final void mergeEarliest(WindowState w, MergeSources sources) {
    if (sources.count == 0 || (sources.count == 1 && sources.resultIsSource)) {
      return;
    }
    long earliest = sources.resultIsSource ? NO_TIME : w.slots()[slot];
    for (int i = 0; i < sources.count; i++) {
      WindowState s = sources.windows[i];
      long t = s.slots()[slot];
      if (t != NO_TIME && (earliest == NO_TIME || t < earliest)) {
        earliest = t;
      }
      s.slots()[slot] = NO_TIME;
    }
    w.slots()[slot] = earliest;
  }

  /** Clears this node's slot in every merging window (the result too, when it is one). */
  final void clearSources(MergeSources sources, long empty) {
    for (int i = 0; i < sources.count; i++) {
      sources.windows[i].slots()[slot] = empty;
    }
  }
}
