package io.eventide.engine;

/**
 * afterFirst: fires and finishes as soon as any child is ready to fire, or has finished through a
 * merge. Finishing does not depend on the children finishing: a repeatedly child that fires ends
 * the afterFirst all the same.
 */
final class AfterFirstTriggerNode extends TriggerNode {
  AfterFirstTriggerNode(int index, TriggerNode[] children) {
    super(index, children, -1);
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    for (TriggerNode c : children) {
      c.onElement(w, env);
    }
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    boolean anyFinished = false;
    for (TriggerNode c : children) {
      c.onMerge(w, sources, env);
      anyFinished |= c.isFinished(w);
    }
    setFinished(w, anyFinished);
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    for (TriggerNode c : children) {
      if (c.isFinished(w) || c.shouldFire(w, env)) {
        return true;
      }
    }
    return false;
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    for (TriggerNode c : children) {
      if (c.shouldFire(w, env)) {
        c.onFire(w, env);
      } else {
        // The pane this child was tracking is gone with this firing.
        c.clear(w, env);
      }
    }
    setFinished(w, true);
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    out.append("afterFirst of: ");
    describeChildren(w, env, out);
  }
}
