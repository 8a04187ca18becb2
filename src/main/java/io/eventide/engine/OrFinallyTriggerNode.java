package io.eventide.engine;

/** orFinally: fires when the main child fires; fires and finishes when the until child fires. */
final class OrFinallyTriggerNode extends TriggerNode {
  private final TriggerNode main;
  private final TriggerNode until;

  OrFinallyTriggerNode(int index, TriggerNode main, TriggerNode until) {
    super(index, new TriggerNode[] {main, until}, -1);
    this.main = main;
    this.until = until;
  }

  @Override
  void onElement(WindowState w, TriggerEnv env) {
    main.onElement(w, env);
    until.onElement(w, env);
  }

  @Override
  void onMerge(WindowState w, MergeSources sources, TriggerEnv env) {
    main.onMerge(w, sources, env);
    until.onMerge(w, sources, env);
    setFinished(w, main.isFinished(w) || until.isFinished(w));
  }

  @Override
  boolean shouldFire(WindowState w, TriggerEnv env) {
    return main.shouldFire(w, env) || until.shouldFire(w, env);
  }

  @Override
  void onFire(WindowState w, TriggerEnv env) {
    if (until.shouldFire(w, env)) {
      until.onFire(w, env);
      main.clear(w, env);
    } else {
      // The until child keeps counting across the main child's firings.
      main.onFire(w, env);
    }
    setFinished(w, main.isFinished(w) || until.isFinished(w));
  }

  @Override
  void describe(WindowState w, TriggerEnv env, StringBuilder out) {
    main.describe(w, env, out);
    out.append("; finally when ");
    until.describe(w, env, out);
  }
}
