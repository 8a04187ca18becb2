/**
 * The pure event-time model: windows, trigger state machines, panes, aggregates and watermark
 * holds. Nothing here knows about Spring, Redis, Kafka or JSON; time, state, timers and output come
 * in through small interfaces so that the same engine runs under {@code /simulate}, the live
 * runtime and durable state.
 */
package io.eventide.engine;
