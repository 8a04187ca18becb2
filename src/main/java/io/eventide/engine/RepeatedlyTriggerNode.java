package io.eventide.engine;

/** Fires whenever its child fires, resetting the child each time it finishes; never finishes. */
final class RepeatedlyTriggerNode extends TriggerNode {
  private final TriggerNode repeated;

  RepeatedlyTriggerNode(int index, TriggerNode repeated) {
    super(index, new TriggerNode[] {repeated}, -1);
    this.repeated = repeated;
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    repeated.onElement(w, env);
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    repeated.onMerge(w, sources, env);
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    return repeated.shouldFire(w, env);
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    repeated.onFire(w, env);
    if (repeated.isFinished(w)) {
      repeated.resetTree(w, env);
    }
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    out.append("repeatedly: ");
    repeated.describe(w, env, out);
  }
}
