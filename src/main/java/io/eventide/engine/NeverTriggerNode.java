package io.eventide.engine;

/** Never fires; the window's only output is its closing pane at garbage collection. */
final class NeverTriggerNode extends TriggerNode {
  NeverTriggerNode(int index) {
    super(index, new TriggerNode[0], -1);
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {}

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {}

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    return false;
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    throw new IllegalStateException("never fires");
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    out.append("never fires; only a closing pane can come at garbage collection");
  }
}
