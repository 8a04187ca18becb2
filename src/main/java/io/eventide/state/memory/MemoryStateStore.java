package io.eventide.state.memory;

import io.eventide.core.DeadLetter;
import io.eventide.core.KeyedWindow;
import io.eventide.core.MergedWindow;
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
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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

    /** As records, so that a large event is held truncated, as Redis holds it. */
    final ArrayDeque<JsonNode> deadLetters = new ArrayDeque<>();

    final PaneLog log;

    /** The engines' input watermark as last committed: what is final (see {@link Commit}). */
    long finalThrough = Time.MIN;

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
      outputs.finalThrough = Time.MIN;
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
        o.log.append(PaneEvent.of(id, pane, r.json()));
        if (!pane.retraction()) {
          KeyedWindow k = new KeyedWindow(pane.key(), pane.window().start(), pane.window().end());
          o.results.merge(k, r, MemoryStateStore::later);
        }
      }
      for (MergedWindow merged : commit.mergedAway()) {
        o.results.remove(merged.window());
        o.log.append(PaneEvent.merge(o.nextId(), merged.window().key(), merged.json()));
      }
      if (commit.finalThrough() != null) {
        o.finalThrough = commit.finalThrough();
      }
      if (commit.lateness() != null) {
        o.lateness = commit.lateness();
      }
      while (o.results.size() > resultsLimit) {
        o.results.pollFirstEntry();
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
          List<String> page = new ArrayList<>();
          KeyedWindow next = null;
          synchronized (o) {
            KeyedWindow last = null;
            for (Map.Entry<KeyedWindow, RenderedPane> e :
                (after == null ? o.results : o.results.tailMap(after, false)).entrySet()) {
              KeyedWindow k = e.getKey();
              if (k.start() >= to) {
                break;
              }
              if ((key == null || key.equals(k.key())) && k.end() > from) {
                if (page.size() == limit) {
                  next = last;
                  break;
                }
                page.add(e.getValue().json());
                last = k;
              }
            }
          }
          // Parsed out of the lock, which the shards' commits wait for.
          List<JsonNode> out = new ArrayList<>(page.size());
          for (String json : page) {
            out.add(JsonMapper.shared().readTree(json));
          }
          return new ResultsPage(out, next);
        });
  }

  @Override
  public Mono<Long> finalThrough(String pipeline) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          if (o == null) {
            return Time.MIN;
          }
          synchronized (o) {
            return o.finalThrough;
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
  public Mono<Snapshot> snapshot(String pipeline) {
    return Mono.fromSupplier(
        () -> {
          Outputs o = pipelines.get(pipeline);
          if (o == null) {
            return new Snapshot(LogPage.START, List.of());
          }
          synchronized (o) {
            String position = o.log.end();
            List<PaneEvent> windows = new ArrayList<>(o.results.size());
            for (RenderedPane pane : o.results.values()) {
              windows.add(PaneEvent.of(position, pane.pane(), pane.json()).asOf(position));
            }
            return new Snapshot(position, windows);
          }
        });
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
