package io.eventide.state.memory;

import io.eventide.core.DeadLetter;
import io.eventide.core.KeyedWindow;
import io.eventide.core.MergedWindow;
import io.eventide.core.OutputProgress;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardSnapshot;
import io.eventide.engine.Pane;
import io.eventide.engine.Time;
import io.eventide.sink.ForwarderStore;
import io.eventide.sink.LogPage;
import io.eventide.sink.OutputProperties;
import io.eventide.sink.PaneEvent;
import io.eventide.state.Commit;
import io.eventide.state.OutputStore;
import io.eventide.state.PipelineState;
import io.eventide.state.StateProperties;
import io.eventide.state.StateStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps outputs in this process, bounded per pipeline, and engine state nowhere but in the engines
 * themselves: the embedded default, needing no external service, and losing everything on restart.
 */
public class MemoryStateStore implements StateStore, OutputStore, ForwarderStore {
  /**
   * Results by window start, then key, then end. Written out rather than composed from {@code
   * Comparator.comparing}: every result upsert walks the tree with it, and the composed form's
   * lambdas and boxing showed as 5 % of the service's time under load over HTTP.
   */
  private static final Comparator<KeyedWindow> ORDER =
      (a, b) -> {
        int c = Long.compare(a.start(), b.start());
        if (c != 0) {
          return c;
        }
        c = a.key().compareTo(b.key());
        return c != 0 ? c : Long.compare(a.end(), b.end());
      };

  private final Map<String, Outputs> pipelines = new ConcurrentHashMap<>();

  /** Windows that results and snapshot reads have gone through. */
  private final LongAdder resultsVisited = new LongAdder();

  /**
   * Each pipeline's forwarder lease and checkpoint, apart from its outputs: a forwarder that holds
   * a lease gives the pipeline no state to lose. Dropped with the outputs.
   */
  private final Map<String, Forwarding> forwarding = new ConcurrentHashMap<>();

  private final int resultsLimit;
  private final int deadLettersLimit;
  private final int paneLogLimit;

  /**
   * One pipeline's outputs; the lock orders pane ids with the log that holds them, lets a snapshot
   * read the results and the log position they reflect at one moment, and guards the results: a
   * plain tree under the lock that every commit takes anyway, since a concurrent skip list's
   * upserts (nearly every pane of a tumbling window makes a new result) cost the shard about a
   * microsecond each.
   */
  private static final class Outputs {
    final TreeMap<KeyedWindow, RenderedPane> results = new TreeMap<>(ORDER);

    /**
     * The windows of the results by key, each key's in the same order, so that a read of one key
     * goes through its windows only; null until the first such read, which builds it in one walk of
     * the results (at most {@code eventide.outputs.results-per-pipeline}), and kept by every commit
     * from then on. Kept from the start, it cost a pipeline that nobody reads by key (W1 over HTTP)
     * about 3.5 % of the service's CPU (docs/benchmarks.md).
     */
    Map<String, KeyWindows> byKey;

    /**
     * The longest window the results have held: a window that ends after a time starts less than
     * this before it.
     */
    long span;

    /** As records, so that a large event is held truncated, as Redis holds it. */
    final ArrayDeque<JsonNode> deadLetters = new ArrayDeque<>();

    final PaneLog log;

    /** The output watermark and what is final, as last committed (see {@link Commit}). */
    OutputProgress progress = OutputProgress.NONE;

    /**
     * The lateness advisor as last committed: history of what arrived, so that a runtime rebuilt
     * after a failed step starts from it.
     */
    String lateness;

    long lastMillis;
    long lastSequence;

    /**
     * Ids shaped like Redis stream ids, from the wall clock, so that they keep increasing when a
     * reset starts the log again and a stream resumed across it misses nothing new.
     */
    Outputs(int paneLogLimit) {
      this.log = new PaneLog(paneLogLimit);
    }

    /** Keeps {@code pane} as the result of {@code k}, unless the result holds a later pane. */
    void put(KeyedWindow k, RenderedPane pane) {
      RenderedPane kept = results.put(k, pane);
      if (kept == null) {
        if (byKey != null) {
          index(k);
        }
        span = Math.max(span, k.end() - k.start());
      } else if (later(kept, pane) == kept) {
        results.put(k, kept);
      }
    }

    void remove(KeyedWindow k) {
      if (results.remove(k) != null) {
        removeByKey(k);
      }
    }

    void removeFirst() {
      removeByKey(results.pollFirstEntry().getKey());
    }

    private void index(KeyedWindow k) {
      KeyWindows windows = byKey.get(k.key());
      if (windows == null) {
        byKey.put(k.key(), windows = new KeyWindows(k.key()));
      }
      windows.add(k.start(), k.end());
    }

    /**
     * Indexes the results by key unless a read by key already has; how many results that went
     * through. In the results' order, so that each key's windows join after its last one.
     */
    int indexByKey() {
      if (byKey != null) {
        return 0;
      }
      byKey = new HashMap<>();
      results.keySet().forEach(this::index);
      return results.size();
    }

    private void removeByKey(KeyedWindow k) {
      if (byKey == null) {
        return;
      }
      KeyWindows windows = byKey.get(k.key());
      windows.remove(k.start(), k.end());
      if (windows.isEmpty()) {
        byKey.remove(k.key());
      }
    }

    /**
     * The windows a read of {@code key} (null: any) ending after {@code from} goes through, from
     * the later of the first that can end after it and the one after {@code after}.
     */
    Iterator<KeyedWindow> readFrom(String key, long from, KeyedWindow after) {
      // The smallest window of that start: the empty key and the lowest end sort first.
      KeyedWindow lowest =
          from <= Time.MIN ? null : new KeyedWindow("", from - span + 1, Long.MIN_VALUE);
      boolean afterIt = after != null && (lowest == null || ORDER.compare(after, lowest) >= 0);
      KeyedWindow start = afterIt ? after : lowest;
      if (key == null) {
        return (start == null ? results : results.tailMap(start, !afterIt))
            .navigableKeySet()
            .iterator();
      }
      KeyWindows windows = byKey.get(key);
      if (windows == null) {
        return Collections.emptyIterator();
      }
      int at = start == null ? 0 : windows.from(start, !afterIt);
      return new Iterator<>() {
        int next = at;

        @Override
        public boolean hasNext() {
          return next < windows.size();
        }

        @Override
        public KeyedWindow next() {
          return windows.get(next++);
        }
      };
    }

    String nextId() {
      long now = System.currentTimeMillis();
      if (now > lastMillis) {
        lastMillis = now;
        lastSequence = 0;
      } else {
        lastSequence++;
      }
      return lastMillis + "-" + lastSequence;
    }
  }

  /** One forwarder's lease (its holder's token, until when) and checkpoint. */
  private static final class Forwarding {
    String holder;
    long expiresAt;
    Checkpoint checkpoint;
  }

  public MemoryStateStore(OutputProperties outputs, StateProperties state) {
    this.resultsLimit = outputs.resultsPerPipeline();
    this.deadLettersLimit = outputs.deadLettersPerPipeline();
    this.paneLogLimit = state.paneLogMaxLength();
  }

  @Override
  public boolean durable() {
    return false;
  }

  @Override
  public CompletableFuture<PipelineState> open(
      String pipeline, String lineage, int proposedShards) {
    Outputs outputs = outputs(pipeline);
    // The engines start with no windows (a runtime rebuilt after a failed step has lost them), so
    // the results of the windows they had no longer stand; the pane log and dead letters are
    // history and stay.
    synchronized (outputs) {
      outputs.results.clear();
      outputs.byKey = null;
      outputs.span = 0;
      outputs.progress = OutputProgress.NONE;
    }
    return CompletableFuture.completedFuture(
        new PipelineState() {
          @Override
          public int shardCount() {
            return proposedShards;
          }

          @Override
          public ShardSnapshot shard(int index) {
            return ShardSnapshot.EMPTY;
          }

          @Override
          public String tracker() {
            return null;
          }

          @Override
          public String lateness() {
            synchronized (outputs) {
              return outputs.lateness;
            }
          }

          @Override
          public CompletableFuture<List<String>> commit(Commit commit) {
            return CompletableFuture.completedFuture(write(pipeline, outputs, commit));
          }

          @Override
          public CompletableFuture<Void> release() {
            // One process, whose runtimes never outlive a delete: nothing but the outputs to undo.
            pipelines.remove(pipeline, outputs);
            return CompletableFuture.completedFuture(null);
          }
        });
  }

  private List<String> write(String pipeline, Outputs o, Commit commit) {
    List<String> ids = new ArrayList<>(commit.panes().size());
    synchronized (o) {
      for (RenderedPane r : commit.panes()) {
        Pane pane = r.pane();
        String id = o.nextId();
        ids.add(id);
        // One string for all the commit's entries: its span is kept per commit, not per pane.
        o.log.append(PaneEvent.of(id, pane, r.json(), commit.traceparent()));
        if (!pane.retraction()) {
          o.put(new KeyedWindow(pane.key(), pane.window().start(), pane.window().end()), r);
        }
      }
      for (MergedWindow merged : commit.mergedAway()) {
        o.remove(merged.window());
        o.log.append(PaneEvent.merge(o.nextId(), merged.window().key(), merged.json()));
      }
      // After the commit's panes, which the result may be; a result the limit forgot has no final.
      for (KeyedWindow closed : commit.finals()) {
        RenderedPane last = o.results.get(closed);
        if (last != null) {
          o.log.append(
              PaneEvent.finalAgain(o.nextId(), closed.key(), last.json(), commit.traceparent()));
        }
      }
      if (commit.outputProgress() != null) {
        o.progress = commit.outputProgress();
      }
      if (commit.lateness() != null) {
        o.lateness = commit.lateness();
      }
      while (o.results.size() > resultsLimit) {
        o.removeFirst();
      }
      for (DeadLetter d : commit.deadLetters()) {
        if (o.deadLetters.size() == deadLettersLimit) {
          o.deadLetters.pollFirst();
        }
        o.deadLetters.addLast(d.toJson());
      }
    }
    return ids;
  }

  @Override
  public CompletableFuture<Boolean> hasState(String pipeline) {
    return CompletableFuture.completedFuture(pipelines.containsKey(pipeline));
  }

  @Override
  public CompletableFuture<Void> drop(String pipeline) {
    pipelines.remove(pipeline);
    forwarding.remove(pipeline);
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public Mono<ResultsPage> results(
      String pipeline, String key, long from, long to, KeyedWindow after, int limit) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          if (o == null) {
            return new ResultsPage(List.of(), null);
          }
          List<RenderedPane> page = new ArrayList<>();
          KeyedWindow next;
          synchronized (o) {
            next = read(o, key, from, to, after, limit, page);
          }
          // Parsed out of the lock, which the shards' commits wait for.
          List<JsonNode> out = new ArrayList<>(page.size());
          for (RenderedPane pane : page) {
            out.add(JsonMapper.shared().readTree(pane.json()));
          }
          return new ResultsPage(out, next);
        });
  }

  @Override
  public Mono<Snapshot> snapshot(String pipeline, String key, KeyedWindow after, int limit) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          if (o == null) {
            return new Snapshot(LogPage.START, List.of(), null);
          }
          List<RenderedPane> page = new ArrayList<>();
          String position;
          KeyedWindow next;
          synchronized (o) {
            position = o.log.end();
            next = read(o, key, Time.MIN, Time.MAX, after, limit, page);
          }
          List<PaneEvent> windows = new ArrayList<>(page.size());
          for (RenderedPane pane : page) {
            windows.add(PaneEvent.of(position, pane.pane(), pane.json(), null).asOf(position));
          }
          return new Snapshot(position, windows, next);
        });
  }

  /**
   * Adds up to {@code limit} results of {@code key} (null: any) overlapping {@code [from, to)}
   * after {@code after} to {@code page}, under the outputs' lock; the window to continue after when
   * there are more.
   */
  private KeyedWindow read(
      Outputs o,
      String key,
      long from,
      long to,
      KeyedWindow after,
      int limit,
      List<RenderedPane> page) {
    KeyedWindow last = null;
    int visited = key == null ? 0 : o.indexByKey();
    try {
      for (Iterator<KeyedWindow> windows = o.readFrom(key, from, after); windows.hasNext(); ) {
        visited++;
        KeyedWindow k = windows.next();
        if (k.start() >= to) {
          return null;
        }
        if (k.end() > from) {
          if (page.size() == limit) {
            return last;
          }
          page.add(o.results.get(k));
          last = k;
        }
      }
      return null;
    } finally {
      resultsVisited.add(visited);
    }
  }

  @Override
  public Comparator<KeyedWindow> windowOrder() {
    return ORDER;
  }

  @Override
  public long resultsVisited() {
    return resultsVisited.sum();
  }

  @Override
  public Mono<OutputProgress> progress(String pipeline) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          if (o == null) {
            return OutputProgress.NONE;
          }
          synchronized (o) {
            return o.progress;
          }
        });
  }

  @Override
  public Mono<List<String>> lateness(String pipeline) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          if (o == null) {
            return List.of();
          }
          synchronized (o) {
            return o.lateness == null ? List.of() : List.of(o.lateness);
          }
        });
  }

  /** Of two panes of one window, the one of the higher index: arrival order does not decide. */
  private static RenderedPane later(RenderedPane kept, RenderedPane arriving) {
    return arriving.pane().info().index() >= kept.pane().info().index() ? arriving : kept;
  }

  @Override
  public Mono<List<JsonNode>> deadLetters(String pipeline, int limit) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          List<JsonNode> out = new ArrayList<>();
          if (o != null) {
            synchronized (o) {
              Iterator<JsonNode> it = o.deadLetters.descendingIterator();
              while (it.hasNext() && out.size() < limit) {
                out.add(it.next());
              }
            }
          }
          return out;
        });
  }

  @Override
  public Mono<LogPage> panesAfter(String pipeline, String position, int limit) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          if (o == null) {
            return LogPage.EMPTY;
          }
          synchronized (o) {
            return o.log.after(position, limit);
          }
        });
  }

  @Override
  public Mono<Boolean> acquire(String pipeline, String token, Duration ttl) {
    return lease(pipeline, token, ttl, false);
  }

  @Override
  public Mono<Boolean> extend(String pipeline, String token, Duration ttl) {
    return lease(pipeline, token, ttl, true);
  }

  private Mono<Boolean> lease(String pipeline, String token, Duration ttl, boolean extend) {
    return Mono.fromSupplier(
        () -> {
          Forwarding f = forwarding.computeIfAbsent(pipeline, p -> new Forwarding());
          synchronized (f) {
            long now = System.nanoTime();
            boolean held = f.holder != null && now - f.expiresAt < 0;
            boolean granted = extend ? held && f.holder.equals(token) : !held;
            if (granted) {
              f.holder = token;
              f.expiresAt = now + ttl.toNanos();
            }
            return granted;
          }
        });
  }

  @Override
  public Mono<Checkpoint> checkpoint(String pipeline) {
    return Mono.fromSupplier(
        () -> {
          Forwarding f = forwarding.get(pipeline);
          if (f == null) {
            return null;
          }
          synchronized (f) {
            return f.checkpoint;
          }
        });
  }

  @Override
  public Mono<Boolean> saveCheckpoint(String pipeline, String token, Checkpoint checkpoint) {
    return Mono.fromSupplier(
        () -> {
          Forwarding f = forwarding.get(pipeline);
          if (f == null) {
            return false;
          }
          synchronized (f) {
            boolean holds = token.equals(f.holder) && System.nanoTime() - f.expiresAt < 0;
            if (holds) {
              f.checkpoint = checkpoint;
            }
            return holds;
          }
        });
  }

  @Override
  public Mono<Void> release(String pipeline, String token) {
    return Mono.fromRunnable(
        () -> {
          Forwarding f = forwarding.get(pipeline);
          if (f != null) {
            synchronized (f) {
              if (token.equals(f.holder)) {
                f.holder = null;
              }
            }
          }
        });
  }

  private Outputs outputs(String pipeline) {
    return pipelines.computeIfAbsent(pipeline, p -> new Outputs(paneLogLimit));
  }
}
