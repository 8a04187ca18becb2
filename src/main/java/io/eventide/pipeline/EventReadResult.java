package io.eventide.pipeline;

/** What {@link EventReader} made of one event: an {@link Event} or an {@link InvalidEvent}. */
public sealed interface EventReadResult permits Event, InvalidEvent {}
