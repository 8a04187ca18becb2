package io.eventide.definition.json;

/**
 * One thing wrong with a request body.
 *
 * @param path the JSON pointer of the offending field, e.g. {@code /window/size}
 * @param reason what is wrong with it, in words a caller can act on
 */
public record Violation(String path, String reason) {}
