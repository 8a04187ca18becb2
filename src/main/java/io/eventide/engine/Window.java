package io.eventide.engine;

/**
 * A half-open event-time interval {@code [start, end)}. The global window is the one interval that
 * spans all time; its {@link #maxTimestamp()} is {@link Time#GLOBAL_MAX_TIMESTAMP}.
 */
public record Window(long start, long end) implements Comparable<Window> {

  /** The single window of {@link WindowFn.Global}. */
  public static final Window GLOBAL = new Window(Time.MIN, Time.GLOBAL_MAX_TIMESTAMP + 1);

  public Window {
    if (end <= start) {
      throw new IllegalArgumentException("window end " + end + " must be after start " + start);
    }
  }

  /** The last timestamp inside the window; the watermark has passed it when it is beyond this. */
  public long maxTimestamp() {
    return end - 1;
  }

  public boolean isGlobal() {
    return start == GLOBAL.start && end == GLOBAL.end;
  }

  /** Whether the two windows share a point; touching windows do not intersect. */
  public boolean intersects(Window other) {
    return start < other.end && other.start < end;
  }

  /** The smallest window that covers both. */
  public Window span(Window other) {
    return new Window(Math.min(start, other.start), Math.max(end, other.end));
  }

  @Override
  public int compareTo(Window o) {
    int c = Long.compare(start, o.start);
    return c != 0 ? c : Long.compare(end, o.end);
  }
}
