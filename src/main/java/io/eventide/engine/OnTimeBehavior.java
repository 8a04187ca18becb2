package io.eventide.engine;

/** Whether the on-time pane of a window is emitted when it holds no new elements. */
public enum OnTimeBehavior {
  FIRE_ALWAYS,
  FIRE_IF_NON_EMPTY
}
