package io.eventide.bench;

import io.eventide.core.IngestBounds;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardChanges;
import io.eventide.core.render.PaneRecordWriter;
import io.eventide.definition.KeyFields;
import io.eventide.engine.Pane;
import io.eventide.engine.PaneInfo;
import io.eventide.engine.Timing;
import io.eventide.engine.Window;
import io.eventide.sink.OutputProperties;
import io.eventide.state.Commit;
import io.eventide.state.PipelineState;
import io.eventide.state.TestRedis;
import io.eventide.state.redis.RedisStateStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one commit costs inside Redis, per pane and per key state (issue 18): commits of panes only,
 * of key states only, and of W1's mix, each measured by Redis's own {@code INFO commandstats} (time
 * spent in {@code commit.lua}, and in the commands it calls), so that neither the client nor the
 * machine's other users are in the figure.
 *
 * <p>With {@code owner=partition}, commits are a cluster-mode partition owner's, which keep the
 * partition's key order (issue 34), and a fourth workload adds and removes keys at every commit:
 * what the key order costs is the difference to the same workloads of the build before it.
 *
 * <p>Usage: {@code RedisCommitCost [url=redis://localhost:6379] [commits=200]
 * [owner=pipeline|partition]}; run from the repository root with {@code ./mvnw -Pbench test-compile
 * exec:exec@commit}.
 */
public final class RedisCommitCost {
  private static final Pattern STAT = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+),usec=(\\d+)");

  /** A W1 key state is about this long (the engine's stored form of one open window). */
  private static final int STATE_BYTES = 120;

  private final PipelineState state;
  private final StatefulRedisConnection<String, String> admin;
  private final PaneRecordWriter records =
      new PaneRecordWriter("bench-w1", new KeyFields(List.of("/key")));
  private long window;

  /** Commits of the churning workload so far: each adds keys no earlier one added. */
  private int churned;

  private RedisCommitCost(PipelineState state, StatefulRedisConnection<String, String> admin) {
    this.state = state;
    this.admin = admin;
  }

  public static void main(String[] args) {
    Map<String, String> a = BenchTable.parse(args);
    String url = a.getOrDefault("url", "redis://localhost:6379");
    int commits = Integer.parseInt(a.getOrDefault("commits", "200"));
    boolean partition = a.getOrDefault("owner", "pipeline").equals("partition");
    String prefix = "commitcost" + System.nanoTime();
    OutputProperties outputs =
        new OutputProperties(
            1000,
            Duration.ofSeconds(30),
            Duration.ofSeconds(15),
            100_000,
            1000,
            100,
            10,
            Duration.ofSeconds(1),
            Duration.ofMinutes(30));
    var factory = TestRedis.connectionFactory(url);
    RedisClient client = RedisClient.create(url);
    try (StatefulRedisConnection<String, String> admin = client.connect()) {
      RedisStateStore store =
          new RedisStateStore(
              factory,
              outputs,
              TestRedis.stateProperties(prefix),
              IngestBounds.DEFAULT,
              TestRedis.marker(factory, prefix));
      PipelineState owner =
          partition
              ? store.openPartition("cost", "lineage", 0, 1).join()
              : store.open("cost", "lineage", 1).join();
      RedisCommitCost bench = new RedisCommitCost(owner, admin);
      System.out.println(
          "| commit | commits | µs per commit | µs per pane | µs per key state"
              + " | of which in commands (µs per commit) |");
      System.out.println("|---|---|---|---|---|---|");
      for (int round = 0; round < 2; round++) {
        boolean print = round == 1;
        bench.measure("1 000 panes", commits, 1000, 0, print);
        bench.measure("1 000 key states", commits, 0, 1000, print);
        bench.measure("W1's mix: 130 panes, 450 key states", commits, 130, 450, print);
        if (partition) {
          bench.measureChurn(commits, print);
        }
      }
    } finally {
      client.shutdown();
      factory.destroy();
      TestRedis.delete(prefix);
    }
  }

  private void measure(String name, int commits, int panes, int states, boolean print) {
    admin.sync().configResetstat();
    for (int c = 0; c < commits; c++) {
      state.commit(commit(panes, states, c)).join();
    }
    report(name, panes, states, print);
  }

  /**
   * Commits of 450 key states, 150 of them added and 150 others removed, the rest changed: keys
   * come and go as their windows open and close, about 7 500 held at a time.
   */
  private void measureChurn(int commits, boolean print) {
    admin.sync().configResetstat();
    for (int c = 0; c < commits; c++) {
      state.commit(churn(churned++)).join();
    }
    report("450 key states: 150 added, 150 removed", 0, 450, print);
  }

  private Commit churn(int c) {
    Map<String, byte[]> changed = new HashMap<>();
    List<String> added = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    for (int j = 0; j < 150; j++) {
      added.add("n" + (c * 150 + j));
      for (int age = 1; age <= 2 && age <= c; age++) {
        changed.put("n" + ((c - age) * 150 + j), state(c));
      }
      if (c >= 50) {
        removed.add("n" + ((c - 50) * 150 + j));
      }
    }
    added.forEach(k -> changed.put(k, state(c)));
    return new Commit(
        List.of(new ShardChanges(0, changed, added, removed, new LinkedHashMap<>(), null)),
        null,
        List.of(),
        List.of(),
        List.of());
  }

  private static byte[] state(int c) {
    byte[] s = new byte[STATE_BYTES];
    s[0] = (byte) c;
    return s;
  }

  private void report(String name, int panes, int states, boolean print) {
    Map<String, long[]> stats = stats();
    long[] script = stats.getOrDefault("evalsha", new long[2]);
    long inCommands = 0;
    for (Map.Entry<String, long[]> e : stats.entrySet()) {
      if (!e.getKey().equals("evalsha") && !e.getKey().startsWith("config")) {
        inCommands += e.getValue()[1];
      }
    }
    double perCommit = (double) script[1] / script[0];
    if (print) {
      System.out.printf(
          "| %s | %d | %.0f | %s | %s | %.0f |%n",
          name,
          script[0],
          perCommit,
          panes == 0 ? "–" : String.format("%.2f", perCommit / panes),
          states == 0 ? "–" : String.format("%.2f", perCommit / states),
          (double) inCommands / script[0]);
    }
  }

  private Commit commit(int panes, int states, int c) {
    List<RenderedPane> rendered = new ArrayList<>(panes);
    for (int i = 0; i < panes; i++) {
      rendered.add(pane("k" + (i % 10_000), window++));
    }
    Map<String, byte[]> changed = new HashMap<>();
    for (int i = 0; i < states; i++) {
      changed.put("k" + ((c * states + i) % 20_000), state(c));
    }
    // The keys cycle through 20 000 held ones: changed, none added once the first round held them.
    List<ShardChanges> shards =
        states == 0
            ? List.of()
            : List.of(
                new ShardChanges(0, changed, List.of(), List.of(), new LinkedHashMap<>(), null));
    return new Commit(shards, null, rendered, List.of(), List.of());
  }

  /** A W1 on-time pane of window number {@code n}. */
  private RenderedPane pane(String key, long n) {
    Window w = new Window(n * 60_000, (n + 1) * 60_000);
    Pane pane =
        new Pane(
            key,
            w,
            12_345L,
            null,
            w.end() - 1,
            new PaneInfo(0, 0, Timing.ON_TIME, true, true),
            false,
            -1,
            w.end(),
            w.end(),
            w.end());
    return new RenderedPane(pane, records.write(pane));
  }

  /** Each command's calls and microseconds since the last reset. */
  private Map<String, long[]> stats() {
    Map<String, long[]> stats = new HashMap<>();
    Matcher m = STAT.matcher(admin.sync().info("commandstats"));
    while (m.find()) {
      stats.put(m.group(1), new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3))});
    }
    return stats;
  }
}
