/**
 * The pure event-time model: windows, trigger state machines, panes, aggregates and watermark
 * holds. Nothing here knows about Spring, Redis, Kafka or JSON, so that the same engine runs under
 * {@code /simulate}, the live runtime and durable state.
 *
 * <p>What comes in from outside: processing time, read from a {@link
 * io.eventide.engine.ProcessingClock}; elements, in {@link io.eventide.engine.ElementBatch}es; the
 * input watermark, which the caller advances. What goes out: panes, dropped elements and merged
 * sessions, to a {@link io.eventide.engine.PaneOutput}. State and timers are not behind an
 * interface: {@link io.eventide.engine.EventTimeEngine} keeps every key's windows in its own map
 * and its timers in its own queues (buckets of about a second, sorted when they come due). A
 * durable store follows it by draining the keys that changed, each in one versioned binary form, to
 * {@link io.eventide.engine.KeyStateChanges}, and rebuilds an engine from them with {@code
 * restoreKey}.
 *
 * <p>Inside, the engine runs batches, timers and panes; {@code WatermarkHold} has every rule about
 * watermark holds; {@code SessionMerger} decides which session windows merge and asks the engine,
 * through a narrow interface, to merge their state; the trigger nodes keep their state in each
 * window's finished bits and slots; {@code Invariants} checks what the engine assumes about holds,
 * timers and pane timings (the O(1) checks always, the walks over a key's windows in tests).
 */
package io.eventide.engine;
