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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

/**
 * A live pipeline: its keys hashed into shards, its watermark derived from its sources, and the
 * wall clock driving processing time.
 *
 * <p>Order is what makes it correct: under one short lock a batch's parts are queued on their
 * shards and then, if the batch moved the watermark, the advance is queued on every shard. Shards
 * run their queues in order, so a batch always sees the watermark as it stood when it arrived and
 * every later batch sees the advance.
 */
public final class PipelineRuntime {
  private volatile PipelineDefinition definition;
  private volatile EventReader reader;
  private final Shard[] shards;
  private final WatermarkTracker tracker;
  private final ProcessingClock clock;
  private volatile long maxFutureSkew;
  private final DeadLetterListener deadLetters;
  private final RuntimeObserver observer;
  private final Object order = new Object();

  /** Refreshed on every beat, for gauges that must not wait for the shards. */
  private volatile int openWindows;

  /** The watermark last queued to the shards. */
  private volatile long watermark = Time.MIN;

  public PipelineRuntime(
      PipelineDefinition definition,
      int shardCount,
      Executor pool,
      ProcessingClock clock,
      PaneListener panes,
      DeadLetterListener deadLetters,
      RuntimeObserver observer) {
    this.definition = definition;
    this.clock = clock;
    this.deadLetters = deadLetters;
    this.observer = observer;
    this.reader = EventReader.of(definition, Aggregates.create(definition.aggregate().spec()));
    this.maxFutureSkew = definition.watermark().maxFutureSkew().toMillis();
    this.tracker =
        new WatermarkTracker(
            definition.watermark().maxOutOfOrderness().toMillis(),
            definition.watermark().idleTimeout().toMillis(),
            definition.watermark().idleAdvance());
    this.shards = new Shard[shardCount];
    for (int i = 0; i < shardCount; i++) {
      shards[i] =
          new Shard(
              definition.name(),
              definition.windowingStrategy(),
              Aggregates.create(definition.aggregate().spec()),
              clock,
              pool,
              panes,
              deadLetters);
    }
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
    if (!rejected.isEmpty()) {
      deadLetters.onDeadLetters(definition.name(), rejected);
    }
    List<CompletableFuture<ShardOutcome>> parts = new ArrayList<>();
    List<CompletableFuture<Void>> advances = new ArrayList<>();
    synchronized (order) {
      for (int i = 0; i < shards.length; i++) {
        List<IncomingEvent> part = perShard.get(i);
        if (!part.isEmpty()) {
          parts.add(shards[i].apply(part));
          for (IncomingEvent in : part) {
            tracker.observe(in.source(), in.event().timestamp(), now);
          }
        }
      }
      advances.addAll(advanceIfMoved(tracker.current(now)));
    }
    int f = future;
    int inv = invalid;
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenCompose(v -> CompletableFuture.allOf(advances.toArray(CompletableFuture[]::new)))
        .thenApply(
            v -> {
              ShardOutcome sum = ShardOutcome.NONE;
              for (CompletableFuture<ShardOutcome> p : parts) {
                sum = sum.plus(p.join());
              }
              IngestResult result = IngestResult.of(sum, f, inv);
              observer.batchApplied(definition.name(), result, System.nanoTime() - started);
              return result;
            });
  }

  /** Dead-letters lines of an NDJSON body that are not JSON; they count as invalid events. */
  public IngestResult rejectUnreadable(List<String> lines) {
    if (lines.isEmpty()) {
      return IngestResult.EMPTY;
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
    deadLetters.onDeadLetters(definition.name(), letters);
    return new IngestResult(0, 0, 0, 0, 0, 0, lines.size());
  }

  /**
   * Applies an explicit watermark for a source, or for every source when {@code source} is null.
   *
   * @return false when it would have gone backwards and was ignored
   */
  public CompletableFuture<Boolean> postWatermark(String source, long value) {
    long now = clock.now();
    List<CompletableFuture<Void>> advances;
    boolean accepted;
    synchronized (order) {
      accepted = tracker.post(source, value, now);
      advances = advanceIfMoved(tracker.current(now));
    }
    return CompletableFuture.allOf(advances.toArray(CompletableFuture[]::new))
        .thenApply(v -> accepted);
  }

  /** The scheduler's beat: idle sources and the wall clock move time on. */
  public void tick() {
    long now = clock.now();
    synchronized (order) {
      advanceIfMoved(tracker.current(now));
      for (Shard s : shards) {
        s.fireProcessingTimers();
      }
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

  private List<CompletableFuture<Void>> advanceIfMoved(long candidate) {
    if (candidate <= watermark) {
      return List.of();
    }
    watermark = candidate;
    List<CompletableFuture<Void>> out = new ArrayList<>(shards.length);
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
