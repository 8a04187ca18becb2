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
 * @param restates the published pane this one supersedes, for a pane that follows an on-time or
 *     late pane of its window; else null (retractions, and panes after early panes only)
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
    Restatement restates,
    long finalAt,
    long emittedAt,
    long watermark) {

  /** A pane that restates nothing. */
  public Pane(
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
    this(
        key,
        window,
        value,
        partial,
        timestamp,
        info,
        retraction,
        retracts,
        null,
        finalAt,
        emittedAt,
        watermark);
  }

  /**
   * What a pane that follows a published on-time or late pane of its window supersedes: that pane's
   * index and, in accumulating and retracting modes, its value. In discarding mode a pane's value
   * is a delta and there is no value to restate; nor is there for a window restored from state
   * written before restatements, whose last value was not kept.
   *
   * @param index the index of the pane superseded (the window's previous pane that is not a
   *     retraction)
   * @param hasValue whether {@code value} is the superseded pane's value
   * @param value the superseded pane's value as it was emitted (null when {@code !hasValue})
   */
  public record Restatement(int index, boolean hasValue, Object value) {
    public static Restatement indexOnly(int index) {
      return new Restatement(index, false, null);
    }

    public static Restatement of(int index, Object value) {
      return new Restatement(index, true, value);
    }
  }

  /** Whether the window is done: nothing more will be emitted for it. */
  public boolean isFinal() {
    return info.last();
  }
}
