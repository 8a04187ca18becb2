package io.eventide.sink;

import io.eventide.engine.Window;
import tools.jackson.databind.JsonNode;

/**
 * An event that was not applied, with why.
 *
 * @param event the event as it was sent
 * @param reason expired, closed, future, invalid
 * @param path the JSON pointer of the offending field (invalid only), else null
 * @param detail a human-readable explanation
 * @param window the window the event was dropped from (expired, closed), else null
 * @param at the wall-clock time of the drop
 */
public record DeadLetter(
    String pipeline,
    JsonNode event,
    String reason,
    String path,
    String detail,
    Window window,
    long at) {}
