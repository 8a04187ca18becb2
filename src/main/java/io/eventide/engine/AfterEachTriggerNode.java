package io.eventide.engine;

import java.util.Arrays;

/**
 * afterEach: runs each child until it finishes, in order; finishes with the last.
 *
 * <p>Once finished it neither fires nor changes. A parent can still ask it: afterAll fires every
 * child, afterFirst asks every child, and with sessions a merge can finish an afterEach beneath an
 * afterAll that it reopens. Beam's runner throws a NullPointerException there (its
 * AfterEachStateMachine looks for an unfinished sub-trigger that is not there).
 */
final class AfterEachTriggerNode extends TriggerNode {
  AfterEachTriggerNode(int index, TriggerNode[] children) {
    super(index, children, -1);
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    if (!env.isMerging()) {
      // Finished, it takes no more elements; a parent that asks every child may still ask it.
      TriggerNode current = firstUnfinishedChild(w);
      if (current != null) {
        current.onElement(w, env);
      }
    } else {
      // A merge can revive a finished child, so every child keeps its state current.
      for (TriggerNode c : children) {
        c.onElement(w, env);
      }
    }
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    boolean priorAllFinished = true;
    for (TriggerNode c : children) {
      if (priorAllFinished) {
        c.onMerge(w, sources, env);
        priorAllFinished &= c.isFinished(w);
      } else {
        c.clear(w, env);
      }
    }
    setFinished(w, firstUnfinishedChild(w) == null);
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    TriggerNode current = firstUnfinishedChild(w);
    return current != null && current.shouldFire(w, env);
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    TriggerNode current = firstUnfinishedChild(w);
    if (current == null) {
      return;
    }
    current.onFire(w, env);
    if (env.isMerging()) {
      for (TriggerNode c : children) {
        c.clear(w, env);
      }
    }
    setFinished(w, firstUnfinishedChild(w) == null);
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    TriggerNode current = firstUnfinishedChild(w);
    if (current == null) {
      out.append("afterEach of ").append(children.length).append(" steps");
      return;
    }
    int step = Arrays.asList(children).indexOf(current) + 1;
    out.append("afterEach step ").append(step).append(" of ").append(children.length).append(": ");
    current.describe(w, env, out);
  }
}
