package io.eventide.engine;

import java.time.Duration;

/** Fires once processing time is past the pane's first element plus a delay, then finishes. */
final class AfterProcessingTimeTriggerNode extends TriggerNode {
  private final long delay;

  AfterProcessingTimeTriggerNode(int index, int slot, long delay) {
    super(index, new TriggerNode[0], slot);
    this.delay = delay;
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    // Only the first element of the pane sets the target; later ones would only push it back.
    if (w.slots()[slot] != NO_TIME) {
      return;
    }
    long target = env.processingTime() + delay;
    w.slots()[slot] = target;
    env.setProcessingTimer(w, target);
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    if (isFinished(w)) {
      clearSources(sources, NO_TIME);
      return;
    }
    mergeEarliest(w, sources);
    long target = w.slots()[slot];
    if (target != NO_TIME) {
      env.setProcessingTimer(w, target);
    }
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    long target = w.slots()[slot];
    return target != NO_TIME && env.processingTime() > target;
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    clear(w, env);
    setFinished(w, true);
  }

  @Override
  void clear(WindowState w, TriggerEnv env) {
    w.slots()[slot] = NO_TIME;
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    long target = w.slots()[slot];
    if (target == NO_TIME) {
      out.append("afterProcessingTime ")
          .append(Duration.ofMillis(delay))
          .append(": waiting for the first element of the pane");
    } else {
      out.append("processing-time timer at ")
          .append(time(target))
          .append("; processing time is ")
          .append(time(env.processingTime()));
    }
  }
}
