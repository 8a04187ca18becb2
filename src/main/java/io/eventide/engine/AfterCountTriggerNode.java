package io.eventide.engine;

/** Fires once the pane holds at least {@code count} elements, then finishes. */
final class AfterCountTriggerNode extends TriggerNode {
  private final long count;

  AfterCountTriggerNode(int index, int slot, long count) {
    super(index, new TriggerNode[0], slot);
    this.count = count;
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    w.slots()[slot]++;
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    // Having fired in any part means the merged pane already had enough.
    if (sources.finishedInAny(bit)) {
      setFinished(w, true);
      clearSources(sources, 0);
      return;
    }
    mergeSum(w, sources);
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    return w.slots()[slot] >= count;
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    clear(w, env);
    setFinished(w, true);
  }

  @Override
  void clear(WindowState w, TriggerEnv env) {
    w.slots()[slot] = 0;
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    out.append("afterCount ").append(w.slots()[slot]).append(" of ").append(count);
  }
}
