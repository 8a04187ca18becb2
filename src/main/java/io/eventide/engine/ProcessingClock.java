package io.eventide.engine;

/** The engine's only source of processing time: virtual under /simulate, the wall clock live. */
@FunctionalInterface
public interface ProcessingClock {
  long now();
}
