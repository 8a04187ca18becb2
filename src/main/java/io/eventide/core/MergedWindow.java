package io.eventide.core;

/**
 * A session window that had emitted panes, merged into another window of its key: the window that
 * is gone (its result no longer stands) and its merge record ({@link
 * io.eventide.core.render.PaneRecords#merge}), rendered by the shard as panes are.
 */
public record MergedWindow(KeyedWindow window, String json) {}
