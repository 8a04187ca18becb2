package io.eventide.core;

/**
 * What a shard may spend on rendering panes, charged pane by pane as the engine emits them, so that
 * one step that would render without end (a {@code collect} aggregate over many sliding windows)
 * stops at the pane that goes over instead of after it has rendered everything.
 */
@FunctionalInterface
public interface RenderBudget {
  /** Live pipelines render what they emit: their memory is bounded by their state. */
  RenderBudget UNBOUNDED = chars -> {};

  /**
   * Charges one pane rendered as {@code chars} characters of JSON.
   *
   * @throws RuntimeException of the caller's choosing when the budget is spent; the step stops half
   *     done, so the shard must be thrown away
   */
  void charge(int chars);
}
