package io.eventide.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.Time;
import org.junit.jupiter.api.Test;

/**
 * The rule that makes a pipeline's input watermark of its partitions' in cluster mode
 * (docs/scaling.md#watermarks-across-partitions), on a manual clock: now is a plain number.
 */
class PartitionWatermarksTest {
  private static final long IDLE = 60_000;

  @Test
  void aPartitionNeverHeardFromDoesNotHoldThePipelineBack() {
    PartitionWatermarks view = new PartitionWatermarks(3, IDLE);
    assertThat(view.inputWatermark(0)).isEqualTo(Time.MIN);
    view.observe(0, 150_000, 0);
    assertThat(view.inputWatermark(0)).isEqualTo(150_000);
  }

  @Test
  void aPartitionAnAppendWroteToHoldsThePipelineAtTheStartUntilItsWatermarkIsKnown() {
    PartitionWatermarks view = new PartitionWatermarks(3, IDLE);
    view.expect(1, 0);
    view.observe(0, 150_000, 0);
    assertThat(view.inputWatermark(0)).isEqualTo(Time.MIN);
    view.observe(1, 30_000, 0);
    assertThat(view.inputWatermark(0)).isEqualTo(30_000);
  }

  @Test
  void anExpectedPartitionThatNeverReportsHoldsForTheIdleTimeoutOnly() {
    PartitionWatermarks view = new PartitionWatermarks(2, IDLE);
    view.expect(1, 1_000);
    view.observe(0, 150_000, 1_000);
    assertThat(view.inputWatermark(1_000 + IDLE)).isEqualTo(Time.MIN);
    // Partition 0 heard from again, partition 1 still silent: it is idle now.
    view.observe(0, 150_000, 1_001 + IDLE);
    assertThat(view.inputWatermark(1_001 + IDLE)).isEqualTo(150_000);
  }

  @Test
  void anIdlePartitionWrittenToAgainHoldsThePipelineAtItsLastWatermark() {
    PartitionWatermarks view = new PartitionWatermarks(2, IDLE);
    view.observe(0, 100_000, 0);
    view.observe(1, 40_000, 0);
    long later = 5 * IDLE;
    view.observe(0, 400_000, later);
    assertThat(view.inputWatermark(later)).as("partition 1 idle").isEqualTo(400_000);
    view.expect(1, later);
    assertThat(view.inputWatermark(later)).isEqualTo(40_000);
  }

  @Test
  void whenEveryPartitionIsIdleTheLeastKnownWatermarkStands() {
    PartitionWatermarks view = new PartitionWatermarks(3, IDLE);
    view.observe(0, 100_000, 0);
    view.observe(1, 40_000, 0);
    view.expect(2, 0);
    assertThat(view.inputWatermark(2 * IDLE)).isEqualTo(40_000);
  }
}
