package io.eventide.engine;

/** Beam's default trigger: fires whenever the watermark is past the window; never finishes. */
final class DefaultTriggerNode extends TriggerNode {
  DefaultTriggerNode(int index) {
    super(index, new TriggerNode[0], -1);
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    // Once the watermark is past the window the trigger is ready already; no wake-up needed.
    if (!endOfWindowReached(w, env)) {
      env.setEventTimer(w, w.maxTimestamp());
    }
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    if (!endOfWindowReached(w, env)) {
      env.setEventTimer(w, w.maxTimestamp());
    }
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    return endOfWindowReached(w, env);
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {}

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    if (endOfWindowReached(w, env)) {
      out.append("the watermark has passed the window: every late batch fires a late pane");
    } else {
      describeEndOfWindow(w, env, out);
    }
  }
}
