package io.eventide.engine;

/**
 * Position of a pane among the panes of its window.
 *
 * @param index counts the panes of the window from 0
 * @param nonSpeculativeIndex -1 for early panes, else counts the non-early panes from 0
 * @param timing early, on-time or late
 * @param first whether this is pane 0
 * @param last whether the window will emit nothing more
 */
public record PaneInfo(
    int index, int nonSpeculativeIndex, Timing timing, boolean first, boolean last) {}
