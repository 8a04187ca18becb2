package io.eventide.pipeline;

/**
 * What {@link EventReader} made of one event: an {@link Event}, an {@link InvalidEvent}, or a
 * {@link FilteredEvent}.
 */
public sealed interface EventReadResult permits Event, InvalidEvent, FilteredEvent {}
