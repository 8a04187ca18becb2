package io.eventide.engine;

/** A processing clock moved only by explicit steps: /simulate and the tester harness use it. */
public final class ManualClock implements ProcessingClock {
  private long now;

  public ManualClock(long start) {
    this.now = start;
  }

  @Override
  public long now() {
    return now;
  }

  /**
   * Moves the clock to {@code time}; a time in the past is ignored, as processing time never goes
   * back.
   */
  public void set(long time) {
    now = Math.max(now, time);
  }
}
