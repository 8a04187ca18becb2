package io.eventide.engine;

/**
 * The watermark trigger with early and/or late firings. Child 0 runs (repeatedly) before the end of
 * the window, child 1, if present, after it. The early child's finished bit doubles as "the end of
 * the window has been reached".
 */
final class AfterWatermarkWithFiringsTriggerNode extends TriggerNode {
  private final TriggerNode early;
  private final TriggerNode late;

  AfterWatermarkWithFiringsTriggerNode(int index, TriggerNode early, TriggerNode late) {
    super(index, late == null ? new TriggerNode[] {early} : new TriggerNode[] {early, late}, -1);
    this.early = early;
    this.late = late;
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    if (!endOfWindowReached(w, env)) {
      env.setEventTimer(w, w.maxTimestamp());
    }
    if (!env.isMerging()) {
      firstUnfinishedChild(w).onElement(w, env);
    } else {
      // A merge may revive either phase, so both keep their state current.
      for (TriggerNode c : children) {
        c.onElement(w, env);
      }
    }
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    if (!sources.finishedInAll(early.bit) || !endOfWindowReached(w, env)) {
      early.onMerge(w, sources, env);
      early.setFinished(w, false);
      if (late != null) {
        late.setFinished(w, false);
        late.clear(w, env);
      }
    } else {
      early.setFinished(w, true);
      if (late != null) {
        late.onMerge(w, sources, env);
      }
    }
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    if (!early.isFinished(w)) {
      return early.shouldFire(w, env) || endOfWindowReached(w, env);
    }
    return late != null && late.shouldFire(w, env);
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    if (!early.isFinished(w)) {
      onNonLateFiring(w, env);
    } else if (late != null) {
      // Late firings repeat implicitly.
      late.onFire(w, env);
      late.clear(w, env);
      late.setFinished(w, false);
    } else {
      setFinished(w, true);
    }
  }

  private void onNonLateFiring(WindowState w, TriggerEnv env) {
    if (!endOfWindowReached(w, env)) {
      // An early firing; early firings repeat implicitly.
      early.onFire(w, env);
      early.clear(w, env);
      early.setFinished(w, false);
      return;
    }
    // The on-time firing: the early phase is over for good.
    if (early.shouldFire(w, env)) {
      early.onFire(w, env);
    }
    early.setFinished(w, true);
    early.clear(w, env);
    if (late == null) {
      setFinished(w, true);
    } else {
      // The late child ran in parallel during merging; it starts afresh now.
      late.clear(w, env);
    }
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    if (!early.isFinished(w)) {
      out.append("early firings: ");
      early.describe(w, env, out);
      out.append("; ");
      describeEndOfWindow(w, env, out);
    } else if (late != null) {
      out.append("late firings: ");
      late.describe(w, env, out);
    }
  }
}
