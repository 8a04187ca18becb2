package io.eventide.runtime;

import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Time;
import io.eventide.engine.WindowSnapshot;
import io.eventide.engine.aggregate.Aggregates;
import io.eventide.pipeline.Event;
import io.eventide.pipeline.EventReadResult;
import io.eventide.pipeline.EventReader;
import io.eventide.pipeline.InvalidEvent;
import io.eventide.pipeline.PipelineDefinition;
import io.eventide.sink.DeadLetter;
import io.eventide.sink.DeadLetterListener;
import io.eventide.sink.PaneListener;
import io.eventide.state.PipelineState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/**
 * A live pipeline: its keys hashed into shards, its watermark derived from its sources, and the
 * wall clock driving processing time.
 *
 * <p>Order is what makes it correct: under one short lock a batch's parts are queued on their
 * shards and then, if the batch moved the watermark, the advance is queued on every shard. Shards
 * run their queues in order, so a batch always sees the watermark as it stood when it arrived and
 * every later batch sees the advance. The same lock queues each batch's commit ({@link Committer}),
 * so commits follow the order in which the shards changed.
 */
public final class PipelineRuntime {
  private volatile PipelineDefinition definition;
  private volatile EventReader reader;
  private final Shard[] shards;
  private final WatermarkTracker tracker;
  private final ProcessingClock clock;
  private volatile long maxFutureSkew;
  private final RuntimeObserver observer;
  private final Committer committer;
  private final boolean durable;
  private final Object order = new Object();

  /** The tracker's state as last committed, so that an unchanged tracker is not rewritten. */
  private String trackerCommitted;

  /** Refreshed on every beat, for gauges that must not wait for the shards. */
  private volatile int openWindows;

  /** The watermark last queued to the shards. */
  private volatile long watermark = Time.MIN;

  /**
   * @param state the pipeline's state as opened; the runtime starts where it left off
   * @param durable whether the store keeps engine state, so that shards must report changes
   */
  public PipelineRuntime(
      PipelineDefinition definition,
      PipelineState state,
      boolean durable,
      Executor pool,
      ProcessingClock clock,
      PaneListener panes,
      DeadLetterListener deadLetters,
      RuntimeObserver observer) {
    this.definition = definition;
    this.clock = clock;
    this.durable = durable;
    this.observer = observer;
    this.committer =
        new Committer(definition.name(), state, durable, panes, deadLetters, pool, observer);
    this.reader = EventReader.of(definition, Aggregates.create(definition.aggregate().spec()));
    this.maxFutureSkew = definition.watermark().maxFutureSkew().toMillis();
    this.tracker =
        new WatermarkTracker(
            definition.watermark().maxOutOfOrderness().toMillis(),
            definition.watermark().idleTimeout().toMillis(),
            definition.watermark().idleAdvance());
    if (state.tracker() != null) {
      tracker.restore(JsonMapper.shared().readTree(state.tracker()));
      trackerCommitted = state.tracker();
    }
    this.shards = new Shard[state.shardCount()];
    for (int i = 0; i < shards.length; i++) {
      shards[i] =
          new Shard(
              i,
              definition.name(),
              definition.windowingStrategy(),
              Aggregates.create(definition.aggregate().spec()),
              clock,
              pool,
              durable,
              state.shard(i));
      watermark =
          i == 0 ? shards[i].inputWatermark() : Math.min(watermark, shards[i].inputWatermark());
    }
  }

  /** Whether durable state failed to commit, so that the runtime must be rebuilt from the store. */
  public boolean failed() {
    return committer.failed();
  }

  public PipelineDefinition definition() {
    return definition;
  }

  /**
   * Takes a definition that computes the same (see {@link PipelineLifecycle}): new event pointers
   * and watermark settings apply to the next batch; windows and watermarks are kept.
   */
  void redefine(PipelineDefinition next) {
    synchronized (order) {
      definition = next;
      reader = EventReader.of(next, Aggregates.create(next.aggregate().spec()));
      maxFutureSkew = next.watermark().maxFutureSkew().toMillis();
      tracker.reconfigure(
          next.watermark().maxOutOfOrderness().toMillis(),
          next.watermark().idleTimeout().toMillis(),
          next.watermark().idleAdvance());
    }
  }

  /** Reads, checks and applies one batch; completes once its effect is applied. */
  public CompletableFuture<IngestResult> ingest(List<JsonNode> events) {
    return ingest(events, i -> null);
  }

  /**
   * Like {@link #ingest(List)}, for a transport whose events come from several sources in one batch
   * (the partitions of a Kafka poll): {@code defaultSource} names the watermark source of event
   * {@code i} when the event itself names none.
   */
  public CompletableFuture<IngestResult> ingest(
      List<JsonNode> events, IntFunction<String> defaultSource) {
    long started = System.nanoTime();
    long now = clock.now();
    List<List<IncomingEvent>> perShard = new ArrayList<>(shards.length);
    for (int i = 0; i < shards.length; i++) {
      perShard.add(new ArrayList<>());
    }
    List<DeadLetter> rejected = new ArrayList<>();
    int invalid = 0;
    int future = 0;
    for (int index = 0; index < events.size(); index++) {
      JsonNode raw = events.get(index);
      EventReadResult read = reader.read(raw);
      if (read instanceof InvalidEvent bad) {
        invalid++;
        rejected.add(
            new DeadLetter(definition.name(), raw, "invalid", bad.path(), bad.reason(), null, now));
      } else if (read instanceof Event e) {
        if (e.timestamp() > now + maxFutureSkew) {
          future++;
          rejected.add(
              new DeadLetter(
                  definition.name(),
                  raw,
                  "future",
                  definition.event().timestamp(),
                  "more than "
                      + definition.watermark().maxFutureSkew()
                      + " ahead of the wall clock",
                  null,
                  now));
        } else {
          String source = e.source() != null ? e.source() : defaultSource.apply(index);
          perShard.get(shardOf(e.key())).add(new IncomingEvent(e, raw, source));
        }
      }
    }
    List<CompletableFuture<ShardStep>> steps = new ArrayList<>();
    CompletableFuture<Void> committed;
    synchronized (order) {
      for (int i = 0; i < shards.length; i++) {
        List<IncomingEvent> part = perShard.get(i);
        if (!part.isEmpty()) {
          steps.add(shards[i].apply(part));
          for (IncomingEvent in : part) {
            tracker.observe(in.source(), in.event().timestamp(), now);
          }
        }
      }
      steps.addAll(advanceIfMoved(tracker.current(now)));
      committed = committer.submit(steps, trackerChange(), rejected);
    }
    int f = future;
    int inv = invalid;
    return committed.thenApply(
        v -> {
          ShardOutcome sum = ShardOutcome.NONE;
          for (CompletableFuture<ShardStep> p : steps) {
            sum = sum.plus(p.join().outcome());
          }
          IngestResult result = IngestResult.of(sum, f, inv);
          observer.batchApplied(definition.name(), result, System.nanoTime() - started);
          return result;
        });
  }

  /** Dead-letters lines of an NDJSON body that are not JSON; they count as invalid events. */
  public CompletableFuture<IngestResult> rejectUnreadable(List<String> lines) {
    if (lines.isEmpty()) {
      return CompletableFuture.completedFuture(IngestResult.EMPTY);
    }
    long now = clock.now();
    List<DeadLetter> letters = new ArrayList<>(lines.size());
    for (String line : lines) {
      letters.add(
          new DeadLetter(
              definition.name(),
              StringNode.valueOf(line),
              "invalid",
              "",
              "the line is not JSON",
              null,
              now));
    }
    IngestResult result = new IngestResult(0, 0, 0, 0, 0, 0, lines.size());
    synchronized (order) {
      return committer.submit(List.of(), null, letters).thenApply(v -> result);
    }
  }

  /**
   * Applies an explicit watermark for a source, or for every source when {@code source} is null.
   *
   * @return false when it would have gone backwards and was ignored
   */
  public CompletableFuture<Boolean> postWatermark(String source, long value) {
    long now = clock.now();
    boolean accepted;
    CompletableFuture<Void> committed;
    synchronized (order) {
      accepted = tracker.post(source, value, now);
      List<CompletableFuture<ShardStep>> advances = advanceIfMoved(tracker.current(now));
      committed = committer.submit(advances, trackerChange(), List.of());
    }
    return committed.thenApply(v -> accepted);
  }

  /** The scheduler's beat: idle sources and the wall clock move time on. */
  public void tick() {
    long now = clock.now();
    synchronized (order) {
      List<CompletableFuture<ShardStep>> steps = advanceIfMoved(tracker.current(now));
      for (Shard s : shards) {
        steps.add(s.fireProcessingTimers());
      }
      committer.submit(steps, trackerChange(), List.of());
    }
    openWindows().thenAccept(n -> openWindows = n);
  }

  /** The input watermark now, without waiting for the shards. */
  public long inputWatermark() {
    return watermark;
  }

  /** Open windows as of the last beat, without waiting for the shards. */
  public int openWindowsLastBeat() {
    return openWindows;
  }

  public CompletableFuture<WatermarkView> watermark() {
    long now = clock.now();
    long input;
    List<WatermarkTracker.SourceView> sources;
    synchronized (order) {
      input = watermark;
      sources = tracker.sources(now);
    }
    List<CompletableFuture<Long>> outputs = new ArrayList<>();
    for (Shard s : shards) {
      outputs.add(s.outputWatermark());
    }
    return CompletableFuture.allOf(outputs.toArray(CompletableFuture[]::new))
        .thenApply(
            v -> {
              long output = input;
              for (CompletableFuture<Long> o : outputs) {
                output = Math.min(output, o.join());
              }
              return new WatermarkView(input, output, now, sources);
            });
  }

  /** The open windows of a key (or of every key), for "why hasn't my window fired?". */
  public CompletableFuture<List<WindowSnapshot>> explain(String key) {
    if (key != null) {
      return shards[shardOf(key)].explain(key);
    }
    List<CompletableFuture<List<WindowSnapshot>>> parts = new ArrayList<>();
    for (Shard s : shards) {
      parts.add(s.explain(null));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            v -> {
              List<WindowSnapshot> all = new ArrayList<>();
              parts.forEach(p -> all.addAll(p.join()));
              all.sort(
                  Comparator.comparing(WindowSnapshot::key).thenComparing(WindowSnapshot::window));
              return all;
            });
  }

  public CompletableFuture<Integer> openWindows() {
    List<CompletableFuture<Integer>> parts = new ArrayList<>();
    for (Shard s : shards) {
      parts.add(s.openWindows());
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(v -> parts.stream().mapToInt(CompletableFuture::join).sum());
  }

  /** The tracker's state when durable and changed since the last commit, else null. */
  private String trackerChange() {
    if (!durable) {
      return null;
    }
    String now = tracker.snapshot();
    if (now.equals(trackerCommitted)) {
      return null;
    }
    trackerCommitted = now;
    return now;
  }

  private List<CompletableFuture<ShardStep>> advanceIfMoved(long candidate) {
    List<CompletableFuture<ShardStep>> out = new ArrayList<>(shards.length * 2);
    if (candidate <= watermark) {
      return out;
    }
    watermark = candidate;
    for (Shard s : shards) {
      out.add(s.advanceWatermark(candidate));
    }
    return out;
  }

  private int shardOf(String key) {
    // Spread String hash codes, whose low bits are weak for similar keys.
    int h = key.hashCode() * 0x9E3779B9;
    return Math.floorMod(h ^ (h >>> 16), shards.length);
  }
}
