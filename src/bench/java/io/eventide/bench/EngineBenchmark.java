package io.eventide.bench;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One invocation is a whole workload run (2 M events, then the end of time) on fresh engines, and
 * counts as 2 M operations, so the throughput score reads in events per second. Generation and
 * cutting into batches happen in setup; every run's checksum is verified inside the measurement,
 * which costs a comparison.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class EngineBenchmark {
  @Param({"W1", "W2", "W3", "W4"})
  Workload workload;

  @Param("1000")
  int batchSize;

  /** 1: one engine on the benchmark thread; 2: keys split by hash over two engine threads. */
  @Param({"1", "2"})
  int shards;

  private Feed[] feeds;
  private Expectation expected;
  private ExecutorService pool;

  @Setup(Level.Trial)
  public void setUp() {
    Events events = workload.generate(Workload.FULL_N);
    feeds = Feed.split(events, batchSize, shards);
    expected = Expectation.of(workload, events, batchSize);
    pool = Executors.newFixedThreadPool(shards);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pool.shutdownNow();
  }

  @Benchmark
  @OperationsPerInvocation(Workload.FULL_N)
  public Outcome run() throws Exception {
    Outcome outcome = WorkloadRun.run(workload, feeds, batchSize, pool);
    expected.verify(outcome);
    return outcome;
  }
}
