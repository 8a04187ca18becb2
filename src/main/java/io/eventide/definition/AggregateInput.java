package io.eventide.definition;

/** Where a named aggregate takes each event's value from. */
public sealed interface AggregateInput {

  /** The value at a JSON pointer of the event. */
  record Field(String pointer) implements AggregateInput {}

  /** The number a CEL expression computes from the event. */
  record Computed(EventExpression expr) implements AggregateInput {}
}
