package io.eventide.engine;

/**
 * afterAll: fires and finishes once every child that has not finished is ready to fire. Children
 * finish only by firing, which here happens all at once, or through a merge; so one that never
 * finishes, such as a repeatedly, is simply waited for like the others.
 */
final class AfterAllTriggerNode extends TriggerNode {
  AfterAllTriggerNode(int index, TriggerNode[] children) {
    super(index, children, -1);
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    for (TriggerNode c : children) {
      if (!c.isFinished(w)) {
        c.onElement(w, env);
      }
    }
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    boolean allFinished = true;
    for (TriggerNode c : children) {
      c.onMerge(w, sources, env);
    }
    for (TriggerNode c : children) {
      allFinished &= c.isFinished(w);
    }
    setFinished(w, allFinished);
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    for (TriggerNode c : children) {
      if (!c.isFinished(w) && !c.shouldFire(w, env)) {
        return false;
      }
    }
    return true;
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    for (TriggerNode c : children) {
      c.onFire(w, env);
    }
    setFinished(w, true);
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    out.append("afterAll of: ");
    describeChildren(w, env, out);
  }
}
