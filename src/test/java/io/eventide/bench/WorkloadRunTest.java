package io.eventide.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.engine.Timing;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Keeps the benchmark harness honest on a small input: the generator follows docs/benchmarks.md,
 * every workload's run agrees with the independent expectation in one engine and in two, and a
 * wrong run is caught. No timing is asserted.
 */
class WorkloadRunTest {
  private static final int N = 20_000;
  private static final int BATCH = 1000;
  private static ExecutorService pool;

  @BeforeAll
  static void startPool() {
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void stopPool() {
    pool.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(Workload.class)
  void runsMatchTheExpectationInOneAndTwoShards(Workload workload) throws Exception {
    Events events = workload.generate(N);
    Expectation expected = Expectation.of(workload, events, BATCH);

    Outcome one = WorkloadRun.run(workload, Feed.split(events, BATCH, 1), BATCH, pool);
    Outcome two = WorkloadRun.run(workload, Feed.split(events, BATCH, 2), BATCH, pool);

    expected.verify(one);
    expected.verify(two);
    assertThat(two.panesByTiming()).containsExactly(one.panesByTiming());
    assertThat(expected.windows()).isPositive();
    if (!workload.checksumOfLastPanes()) {
      double perEvent = workload.window().windowsPerEvent();
      assertThat(one.checksum()).isEqualTo(events.valueSum() * perEvent);
    }
  }

  /** At this size a window gets a few events per key, too few for an early (count 100) pane. */
  @Test
  void dashboardHasOnTimeAndLatePanesAndDrops() throws Exception {
    Events events = Workload.W2.generate(N);
    Outcome o = WorkloadRun.run(Workload.W2, Feed.split(events, BATCH, 1), BATCH, pool);

    assertThat(o.panes(Timing.ON_TIME)).isPositive();
    assertThat(o.panes(Timing.LATE)).isPositive();
    assertThat(o.dropped()).isPositive();
    assertThat(o.checksum()).isLessThan(events.valueSum());
  }

  @Test
  void generatorDrawsInTheOrderOfWorkloadsMd() {
    Events events = Workload.W2.generate(N);
    SplittableRandom rnd = new SplittableRandom(42);
    for (int i = 0; i < N; i++) {
      long base = Workload.T0 + (i * 3_600_000L) / N;
      String key = "k" + rnd.nextInt(100);
      double value = rnd.nextInt(100);
      long ts = base - rnd.nextLong(5_001);
      if (rnd.nextDouble() < 0.01) {
        ts = base - 60_000 - rnd.nextLong(540_001);
      }
      assertThat(events.key(i)).isEqualTo(key);
      assertThat(events.values()[i]).isEqualTo(value);
      assertThat(events.timestamps()[i]).isEqualTo(ts);
    }
  }

  @Test
  void aWrongRunFailsLoudly() throws Exception {
    Events events = Workload.W1.generate(N);
    Expectation expected = Expectation.of(Workload.W1, events, BATCH);
    Outcome o = WorkloadRun.run(Workload.W1, Feed.split(events, BATCH, 1), BATCH, pool);
    Outcome offByOne =
        new Outcome(o.panesByTiming(), o.dropped(), o.checksum() - 1, o.windowsWithPanes());

    assertThatThrownBy(() -> expected.verify(offByOne))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("W1 run is wrong");
  }
}
