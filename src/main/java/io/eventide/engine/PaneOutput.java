package io.eventide.engine;

/** Where the engine sends what it produces. Called on the engine's thread, in emission order. */
public interface PaneOutput {
  void pane(Pane pane);

  /**
   * An element of the current batch was not added to {@code window}.
   *
   * @param element the element's index in its batch
   */
  void dropped(int element, Window window, DropReason reason);

  /**
   * A session window of {@code key} that had emitted panes was merged into {@code into} and is
   * gone: its last pane no longer stands for a window of its own (in retracting mode a retraction
   * was emitted for it as well).
   */
  default void merged(String key, Window from, Window into) {}

  /**
   * A window of {@code key} that had emitted panes was garbage-collected without a closing pane
   * (nothing arrived since its last one, and the closing behaviour fires only when something did):
   * its last pane, which said it might still change, is final now.
   */
  default void closedWithoutPane(String key, Window window) {}
}
