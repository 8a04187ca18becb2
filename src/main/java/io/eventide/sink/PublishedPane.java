package io.eventide.sink;

import io.eventide.engine.Pane;

/**
 * A pane once its batch is committed: its position in the pipeline's pane log, and its record
 * rendered once for every consumer.
 */
public record PublishedPane(String id, String pipeline, Pane pane, String json) {}
