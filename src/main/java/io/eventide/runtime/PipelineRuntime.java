package io.eventide.runtime;

import io.eventide.core.DeadLetter;
import io.eventide.core.IncomingEvent;
import io.eventide.core.IngestBounds;
import io.eventide.core.IngestResult;
import io.eventide.core.KeyedWindow;
import io.eventide.core.PartitionWatermarks;
import io.eventide.core.PipelineCore;
import io.eventide.core.Rejections;
import io.eventide.core.RenderBudget;
import io.eventide.core.ShardCore;
import io.eventide.core.ShardOps;
import io.eventide.core.ShardStep;
import io.eventide.core.WatermarkMode;
import io.eventide.core.WatermarkTracker;
import io.eventide.core.WindowPages;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Time;
import io.eventide.engine.WindowSnapshot;
import io.eventide.sink.DeadLetterListener;
import io.eventide.sink.PaneListener;
import io.eventide.state.PartitionProgress;
import io.eventide.state.PipelineState;
import io.eventide.state.Receipt;
import io.eventide.state.UnreplicatedCommitException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * A live pipeline: a {@link PipelineCore} whose shards run on serial queues of a shared pool, fed
 * by requests and beaten by the wall clock.
 *
 * <p>Order is what makes it correct: under one short lock a step's shard work is queued by the core
 * (a batch's parts, then the watermark advance it caused) and its commit is queued behind the
 * previous one ({@link Committer}). Shards run their queues in order, so a batch always sees the
 * watermark as it stood when it arrived, and commits follow the order in which the shards changed.
 */
public final class PipelineRuntime implements PipelineInput {
  private final PipelineCore core;
  private final Shard[] shards;
  private final ShardOps<CompletableFuture<ShardStep>> ops;
  private final ProcessingClock clock;
  private final RuntimeObserver observer;
  private final Committer committer;
  private final Object order = new Object();
  private final InFlight inFlight = new InFlight();

  /** Set once closed and drained: the beat then leaves the runtime alone. Guarded by order. */
  private boolean closed;

  /** Refreshed on every beat, for gauges that must not wait for the shards. */
  private volatile int openWindows;

  /** The partition this runtime is in cluster mode, else null. */
  private final PipelineCore.Partition partition;

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
      RuntimeObserver observer,
      CommitTracer tracer,
      IngestBounds bounds) {
    this(
        definition,
        state,
        durable,
        pool,
        clock,
        panes,
        deadLetters,
        observer,
        tracer,
        bounds,
        null);
  }

  /**
   * @param partition in cluster mode, the partition of the pipeline this runtime owns (its state
   *     has one shard); null when the runtime is the whole pipeline
   */
  public PipelineRuntime(
      PipelineDefinition definition,
      PipelineState state,
      boolean durable,
      Executor pool,
      ProcessingClock clock,
      PaneListener panes,
      DeadLetterListener deadLetters,
      RuntimeObserver observer,
      CommitTracer tracer,
      IngestBounds bounds,
      PipelineCore.Partition partition) {
    this.partition = partition;
    this.clock = clock;
    this.observer = observer;
    this.committer =
        new Committer(
            definition.name(),
            state,
            panes,
            deadLetters,
            pool,
            observer,
            tracer,
            partition == null ? -1 : partition.index(),
            state.shardCount());
    this.shards = new Shard[state.shardCount()];
    long watermark = Time.MAX;
    // In cluster mode the one shard is a partition, and the pipeline's windows are split over them.
    int shares = partition == null ? shards.length : partition.watermarks().partitions();
    for (int i = 0; i < shards.length; i++) {
      int windows = bounds.openWindowShare(partition == null ? i : partition.index(), shares);
      shards[i] =
          new Shard(
              new ShardCore(
                  i,
                  windows,
                  definition,
                  clock,
                  durable,
                  state.shard(i),
                  bounds,
                  RenderBudget.UNBOUNDED),
              pool);
      watermark = Math.min(watermark, shards[i].restoredWatermark());
    }
    this.core =
        new PipelineCore(
            definition,
            WatermarkMode.FROM_SOURCES,
            shards.length,
            watermark,
            state.tracker(),
            state.lateness(),
            durable,
            bounds,
            partition);
    this.ops = new QueuedShards();
  }

  /**
   * Starts a request's work on this runtime; every successful call is paired with {@link #exit()}.
   *
   * @return false when the runtime is closing for a reset or delete
   */
  boolean enter() {
    return inFlight.enter();
  }

  void exit() {
    inFlight.exit();
  }

  /**
   * Lets no more requests in and completes once those in flight and every commit they queued are
   * done, so that the state can be dropped with nothing left to write into it.
   */
  CompletableFuture<Void> close() {
    return inFlight
        .close()
        .thenCompose(
            v -> {
              synchronized (order) {
                closed = true;
                return committer.drained();
              }
            });
  }

  /**
   * Whether a step or a commit failed, so that the runtime must be rebuilt from the store: with the
   * memory store, from nothing, as after a restart.
   */
  public boolean failed() {
    return committer.failed();
  }

  @Override
  public PipelineDefinition definition() {
    return core.definition();
  }

  /**
   * Takes a definition that computes the same (see {@link PipelineLifecycle}): new event pointers
   * and watermark settings apply to the next batch; windows and watermarks are kept.
   */
  void redefine(PipelineDefinition next) {
    synchronized (order) {
      // Redefinitions may arrive out of order; the runtime keeps the latest stored one.
      if (next.revision().supersedes(core.definition().revision())) {
        core.redefine(next);
      }
    }
  }

  /**
   * Like {@link #ingest(EventTexts)}, with lines that are not JSON at all (dead-lettered as
   * invalid) and, for a transport whose events come from several sources in one batch (the
   * partitions of a Kafka poll), {@code defaultSource} naming the watermark source of event {@code
   * i} when the event itself names none. One commit takes it all.
   */
  @Override
  public CompletableFuture<IngestResult> ingest(
      EventTexts events, List<String> unreadable, IntFunction<String> defaultSource) {
    return ingest(events, unreadable, defaultSource, false, null, RequestSpans.NONE);
  }

  @Override
  public CompletableFuture<IngestResult> post(
      EventTexts events, boolean strict, String traceparent) {
    return ingest(events, List.of(), i -> null, strict, null, RequestSpans.of(traceparent));
  }

  @Override
  public void checkReadable(EventTexts events) {
    UnreadableBatchException.refuseUnreadable(core.read(events, i -> null, clock.now()));
  }

  /**
   * Like {@link #ingest(EventTexts, List, IntFunction)}, for a run of records of a partition's
   * ingest log (cluster mode): each event is read as of when the replica that logged it read it,
   * and the commit records where the partition resumes, the counts of the run as the receipt of the
   * request that waits for them, and where the run leaves the Kafka source partitions its events
   * were read from.
   */
  CompletableFuture<IngestResult> ingest(
      EventTexts events,
      List<String> unreadable,
      IntFunction<String> defaultSource,
      LoggedRun run) {
    return ingest(events, unreadable, defaultSource, false, run, run.requests());
  }

  /**
   * @param strict whether an event that reading finds invalid refuses the whole batch
   * @param run the run of the ingest log the batch is (cluster mode), else null
   * @param requests the traced requests the batch is of
   */
  private CompletableFuture<IngestResult> ingest(
      EventTexts events,
      List<String> unreadable,
      IntFunction<String> defaultSource,
      boolean strict,
      LoggedRun run,
      RequestSpans requests) {
    long started = System.nanoTime();
    long now = clock.now();
    PipelineCore.ReadBatch batch =
        run == null
            ? core.read(events, defaultSource, now)
            : core.read(events, defaultSource, run.readAt());
    if (strict) {
      UnreadableBatchException.refuseUnreadable(batch);
    }
    // The batch's own list: applying it adds the events of sources beyond the cap.
    List<DeadLetter> rejected = batch.rejected();
    rejected.addAll(core.unreadable(unreadable, now));
    IngestResult unread = new IngestResult(0, 0, 0, 0, 0, 0, 0, unreadable.size());
    List<CompletableFuture<ShardStep>> steps;
    CompletableFuture<Void> committed;
    synchronized (order) {
      steps = core.apply(batch, now, ops);
      // After the apply: the partition's sources have seen the batch.
      PartitionProgress progress = progress(run == null ? null : run.nextOffset(), now);
      if (run != null && run.request() != null && progress != null) {
        // What reading refused, the replica that logged the request knew and told already.
        IngestResult logged = batch.result(unread).withRejections(Rejections.NONE);
        progress =
            progress.withReceipt(
                new Receipt(run.request(), logged, run.positions())
                    .plus(IngestResult.EMPTY.withRejections(batch.appliedRejections())));
      }
      if (run != null && !run.origins().isEmpty() && progress != null) {
        progress = progress.withOrigins(run.origins());
      }
      committed =
          committer.submit(
              steps, core.changes(now), rejected, progress, core.watermark(), requests);
    }
    return committed.handle(
        (v, error) -> {
          Throwable cause = error instanceof CompletionException c ? c.getCause() : error;
          if (cause != null && !(cause instanceof UnreplicatedCommitException)) {
            throw error instanceof CompletionException c ? c : new CompletionException(error);
          }
          IngestResult sum = unread;
          for (CompletableFuture<ShardStep> p : steps) {
            sum = sum.plus(p.join().outcome());
          }
          IngestResult result = batch.result(sum);
          observer.batchApplied(core.definition().name(), result, System.nanoTime() - started);
          if (cause instanceof UnreplicatedCommitException unreplicated) {
            throw new CompletionException(unreplicated.withApplied(result));
          }
          return result;
        });
  }

  /**
   * Applies an explicit watermark for a source, or for every source when {@code source} is null.
   *
   * @return false when it would have gone backwards and was ignored
   */
  @Override
  public CompletableFuture<Boolean> postWatermark(String source, long value, String traceparent) {
    return postWatermark(source, value, null, traceparent);
  }

  /**
   * Like {@link #postWatermark(String, long, String)}, for a watermark record of a partition's
   * ingest log (cluster mode), whose commit records {@code nextOffset} as where the partition
   * resumes.
   */
  CompletableFuture<Boolean> postWatermark(
      String source, long value, Long nextOffset, String traceparent) {
    long now = clock.now();
    PipelineCore.Posted<CompletableFuture<ShardStep>> posted;
    CompletableFuture<Void> committed;
    synchronized (order) {
      posted = core.postWatermark(source, value, now, ops);
      committed =
          committer.submit(
              posted.steps(),
              core.changes(now),
              List.of(),
              progress(nextOffset, now),
              core.watermark(),
              RequestSpans.of(traceparent));
    }
    return committed.thenApply(v -> posted.accepted());
  }

  /** The partition's progress for a commit (cluster mode); null for a whole pipeline. */
  private PartitionProgress progress(Long nextOffset, long now) {
    if (partition == null) {
      return null;
    }
    PartitionWatermarks.OwnSources own = core.ownSources(now);
    return new PartitionProgress(nextOffset, own.watermark(), own.heard());
  }

  /** The scheduler's beat: idle sources and the wall clock move time on. */
  public void tick() {
    long now = clock.now();
    synchronized (order) {
      if (closed) {
        return;
      }
      List<CompletableFuture<ShardStep>> steps = core.beat(now, ops);
      committer.submit(
          steps,
          core.changes(now),
          List.of(),
          progress(null, now),
          core.watermark(),
          RequestSpans.NONE);
    }
    openWindows().thenAccept(n -> openWindows = n);
  }

  /** The input watermark now, without waiting for the shards. */
  public long inputWatermark() {
    return core.watermark();
  }

  /** Open windows as of the last beat, without waiting for the shards. */
  public int openWindowsLastBeat() {
    return openWindows;
  }

  @Override
  public CompletableFuture<WatermarkView> watermark() {
    long now = clock.now();
    long input;
    List<WatermarkTracker.SourceView> sources;
    synchronized (order) {
      input = core.watermark();
      sources = core.sources(now);
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

  /**
   * A page of the open windows of a key (or of every key), for "why hasn't my window fired?": at
   * most {@code limit} in key and window order after {@code after} (null: from the first).
   */
  public CompletableFuture<List<WindowSnapshot>> explain(String key, KeyedWindow after, int limit) {
    if (key != null) {
      return shards[core.shardOf(key)].explain(key, after, limit);
    }
    List<CompletableFuture<List<WindowSnapshot>>> parts = new ArrayList<>();
    for (Shard s : shards) {
      parts.add(s.explain(null, after, limit));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(
            v -> WindowPages.first(parts.stream().map(CompletableFuture::join).toList(), limit));
  }

  public CompletableFuture<Integer> openWindows() {
    List<CompletableFuture<Integer>> parts = new ArrayList<>();
    for (Shard s : shards) {
      parts.add(s.openWindows());
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(v -> parts.stream().mapToInt(CompletableFuture::join).sum());
  }

  /** The core's shard work, queued on the shards. */
  private final class QueuedShards implements ShardOps<CompletableFuture<ShardStep>> {
    @Override
    public CompletableFuture<ShardStep> apply(int shard, List<IncomingEvent> part) {
      return shards[shard].apply(part);
    }

    @Override
    public CompletableFuture<ShardStep> advanceWatermark(int shard, long watermark) {
      return shards[shard].advanceWatermark(watermark);
    }

    @Override
    public CompletableFuture<ShardStep> fireProcessingTimers(int shard) {
      return shards[shard].fireProcessingTimers();
    }
  }
}
