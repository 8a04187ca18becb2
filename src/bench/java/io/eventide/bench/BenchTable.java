package io.eventide.bench;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs W1–W4 without JMH and prints a Markdown table for the docs, then W1's bytes per open window.
 * Arguments are {@code name=value}: {@code warmups} (untimed runs first, default 2), {@code batch}
 * (default 1000), {@code events} (default 2 000 000), {@code shards} (comma-separated, default
 * 1,2). Each timed run is verified against the {@link Expectation}.
 */
public final class BenchTable {
  private BenchTable() {}

  /** Command-line options of the form {@code name=value}. */
  static Map<String, String> parse(String[] args) {
    Map<String, String> opts = new HashMap<>();
    for (String a : args) {
      String[] kv = a.split("=", 2);
      opts.put(kv[0], kv.length > 1 ? kv[1] : "");
    }
    return opts;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = parse(args);
    int warmups = Integer.parseInt(opts.getOrDefault("warmups", "2"));
    int batchSize = Integer.parseInt(opts.getOrDefault("batch", "1000"));
    int n = Integer.parseInt(opts.getOrDefault("events", String.valueOf(Workload.FULL_N)));
    int[] shardCounts =
        Arrays.stream(opts.getOrDefault("shards", "1,2").split(","))
            .mapToInt(Integer::parseInt)
            .toArray();
    List<Workload> workloads =
        Arrays.stream(opts.getOrDefault("workloads", "W1,W2,W3,W4").split(","))
            .map(Workload::valueOf)
            .toList();

    System.out.printf(
        "%d events per workload, batches of %d, %d warm-up runs%n%n", n, batchSize, warmups);
    System.out.println(
        "| workload | shards | events/s | wall s | panes (early/on-time/late) | dropped | checksum"
            + " | expected | peak heap MiB |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    ExecutorService pool = Executors.newCachedThreadPool();
    try {
      for (Workload w : workloads) {
        Events events = w.generate(n);
        Expectation expected = Expectation.of(w, events, batchSize);
        for (int shards : shardCounts) {
          Feed[] feeds = Feed.split(events, batchSize, shards);
          for (int i = 0; i < warmups; i++) {
            expected.verify(WorkloadRun.run(w, feeds, batchSize, pool));
          }
          Heap.usedAfterGc();
          Heap.resetPeaks();
          long start = System.nanoTime();
          Outcome o = WorkloadRun.run(w, feeds, batchSize, pool);
          double seconds = (System.nanoTime() - start) / 1e9;
          long peak = Heap.peakSum();
          expected.verify(o);
          System.out.printf(
              "| %s | %d | %,.0f | %.2f | %d (%s) | %d | %.0f | %.0f | %d |%n",
              w,
              shards,
              n / seconds,
              seconds,
              o.panes(),
              o.panesByTimingText(),
              o.dropped(),
              o.checksum(),
              expected.checksum(),
              peak >> 20);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    if (!workloads.contains(Workload.W1)) {
      return;
    }
    WindowFootprint f = WindowFootprint.measure(Workload.W1, Workload.W1.generate(n), batchSize);
    System.out.printf(
        "%nW1 at its peak: %d open windows, %d bytes live, %.1f bytes per open window%n",
        f.openWindows(), f.bytes(), f.bytesPerWindow());
  }
}
