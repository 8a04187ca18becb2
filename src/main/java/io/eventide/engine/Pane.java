package io.eventide.engine;

/**
 * One output of a window: the aggregate of the elements its trigger fired on, or, in retracting
 * mode, the retraction of an earlier pane.
 *
 * @param key the key the window belongs to
 * @param window the window
 * @param value the aggregate's output (numbers, strings, lists and maps only)
 * @param partial the aggregate's mergeable state for non-additive aggregates, else null
 * @param timestamp the output timestamp chosen by the timestamp combiner
 * @param info the pane's position among the window's panes
 * @param retraction whether this record withdraws the pane {@code retracts}
 * @param retracts the index of the pane withdrawn, or -1
 * @param finalAt the event time after which the window can no longer change
 * @param emittedAt the processing time of emission
 * @param watermark the input watermark at emission
 */
public record Pane(
    String key,
    Window window,
    Object value,
    Object partial,
    long timestamp,
    PaneInfo info,
    boolean retraction,
    int retracts,
    long finalAt,
    long emittedAt,
    long watermark) {

  /** Whether the window is done: nothing more will be emitted for it. */
  public boolean isFinal() {
    return info.last();
  }
}
