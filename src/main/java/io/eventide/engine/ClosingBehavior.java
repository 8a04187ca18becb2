package io.eventide.engine;

/** Whether the final pane of a window is emitted when it holds no new elements. */
public enum ClosingBehavior {
  FIRE_IF_NON_EMPTY,
  FIRE_ALWAYS
}
