package io.eventide.engine.aggregate;

import java.io.DataInput;
import java.io.IOException;

/**
 * An aggregate whose accumulator fits an {@link AccumulatorCell}, so that whoever keeps many of
 * them can hand over a cell of its own (the engine: the window) instead of holding one more object.
 */
public interface InlineAggregate extends Aggregate<AccumulatorCell> {

  /** Makes {@code cell} an empty accumulator, as {@link #create} would return. */
  void clear(AccumulatorCell cell);

  /** Makes {@code cell} the accumulator written by {@link #write}, as {@link #read} would. */
  void readInto(DataInput in, AccumulatorCell cell) throws IOException;

  @Override
  default AccumulatorCell create() {
    AccumulatorCell cell = new AccumulatorCell();
    clear(cell);
    return cell;
  }

  @Override
  default AccumulatorCell read(DataInput in) throws IOException {
    AccumulatorCell cell = new AccumulatorCell();
    readInto(in, cell);
    return cell;
  }
}
