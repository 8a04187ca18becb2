package io.eventide.engine;

/** Fires once when the watermark passes the end of the window, then finishes. */
final class AfterWatermarkTriggerNode extends TriggerNode {
  AfterWatermarkTriggerNode(int index) {
    super(index, new TriggerNode[0], -1);
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    if (!endOfWindowReached(w, env)) {
      env.setEventTimer(w, w.maxTimestamp());
    }
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    // A merged window is open again unless every part had finished and its end is already passed:
    // pending elements of an unfinished part still deserve their on-time firing.
    boolean doneForGood = sources.finishedInAll(bit) && endOfWindowReached(w, env);
    setFinished(w, doneForGood);
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    return endOfWindowReached(w, env);
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    setFinished(w, true);
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    describeEndOfWindow(w, env, out);
  }
}
