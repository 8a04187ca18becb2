package io.eventide.core.read;

/**
 * What {@link EventReader} made of one event: an {@link Event}, an {@link InvalidEvent}, a {@link
 * FilteredEvent} or an {@link UnreadableEvent}.
 */
public sealed interface EventReadResult
    permits Event, InvalidEvent, FilteredEvent, UnreadableEvent {}
