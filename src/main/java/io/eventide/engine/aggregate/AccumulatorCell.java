package io.eventide.engine.aggregate;

/**
 * Two numbers in which an {@link InlineAggregate} keeps its whole accumulator. The engine's windows
 * are cells, so that a sum or a count costs a window no object of its own; elsewhere a cell is an
 * accumulator object like any other. Only the aggregates of this package read the numbers.
 */
public class AccumulatorCell {
  double first;
  double second;
}
