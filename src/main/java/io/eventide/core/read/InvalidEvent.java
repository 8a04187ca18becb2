package io.eventide.core.read;

/**
 * An event that cannot enter the engine.
 *
 * @param path the JSON pointer, inside the event, of the offending field
 * @param reason what is wrong with it
 */
public record InvalidEvent(String path, String reason) implements EventReadResult {}
