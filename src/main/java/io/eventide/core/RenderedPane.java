package io.eventide.core;

import io.eventide.engine.Pane;

/** A pane with its record rendered once, for the store, the pane log and every stream. */
public record RenderedPane(Pane pane, String json) {}
