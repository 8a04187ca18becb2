package io.eventide.core;

/** A window of one key: what a result is stored under. */
public record KeyedWindow(String key, long start, long end) {}
