package io.eventide.sink;

import io.eventide.engine.Pane;

/**
 * A pane with the position it was published at: ids increase per pipeline, so a dashboard can order
 * what it receives and say where it stopped.
 */
public record PublishedPane(long id, String pipeline, Pane pane) implements PaneStreamItem {}
