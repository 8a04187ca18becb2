package io.eventide.runtime;

import io.eventide.core.CoreChanges;
import io.eventide.core.DeadLetter;
import io.eventide.core.IngestResult;
import io.eventide.core.KeyedWindow;
import io.eventide.core.MergedWindow;
import io.eventide.core.OutputProgress;
import io.eventide.core.RenderedPane;
import io.eventide.core.ShardChanges;
import io.eventide.core.ShardStep;
import io.eventide.sink.DeadLetterListener;
import io.eventide.sink.PaneListener;
import io.eventide.sink.PublishedPane;
import io.eventide.state.Commit;
import io.eventide.state.PartitionProgress;
import io.eventide.state.PipelineState;
import io.eventide.state.StateUnavailableException;
import io.eventide.state.UnreplicatedCommitException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a pipeline's steps to its state store, one commit after another in the order they were
 * queued, and only then publishes their panes and dead letters: a pane a dashboard sees is in the
 * pane log, and a 202 means the batch is in the store.
 *
 * <p>A commit waits for the shard steps it gathers and for the commit before it. When a step throws
 * or a commit fails, the engines are ahead of the store (a step that threw may have changed its
 * shard half way, and left panes behind for the next step), with the memory store as with Redis: so
 * every later commit fails too and the runtime reports itself failed, to be rebuilt from the store.
 */
final class Committer {
  private static final Logger log = LoggerFactory.getLogger(Committer.class);

  private final String pipeline;
  private final PipelineState state;
  private final PaneListener panes;
  private final DeadLetterListener deadLetters;
  private final Executor pool;
  private final RuntimeObserver observer;
  private final CommitTracer tracer;

  /** The partition the commits are of (cluster mode), else -1: what their spans say. */
  private final int partition;

  /** The last commit queued; guarded by the runtime's order lock. */
  private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

  /**
   * Each shard's output watermark as of its last step, {@link Long#MIN_VALUE} before its first; and
   * the progress the last commit written carried. Both only touched by commits, one at a time.
   */
  private final long[] shardOutputs;

  private OutputProgress recorded = OutputProgress.NONE;

  private volatile Throwable failure;

  Committer(
      String pipeline,
      PipelineState state,
      PaneListener panes,
      DeadLetterListener deadLetters,
      Executor pool,
      RuntimeObserver observer,
      CommitTracer tracer,
      int partition,
      int shards) {
    this.pipeline = pipeline;
    this.shardOutputs = new long[shards];
    Arrays.fill(shardOutputs, Long.MIN_VALUE);
    this.pool = pool;
    this.observer = observer;
    this.tracer = tracer;
    this.partition = partition;
    this.state = state;
    this.panes = panes;
    this.deadLetters = deadLetters;
  }

  /**
   * Queues a commit of {@code steps}, what the core has to commit of its own, {@code rejected}
   * events and, in cluster mode, the partition's progress (else null). The caller holds the
   * runtime's order lock, which is what orders commits.
   *
   * @param watermark the input watermark the shards have been handed once {@code steps} are done:
   *     what the commit makes final, recorded with the output watermark when either moved
   * @param requests the traced requests the commit applies: with any, the commit has a span
   * @return completes once committed and published
   */
  CompletableFuture<Void> submit(
      List<CompletableFuture<ShardStep>> steps,
      CoreChanges own,
      List<DeadLetter> rejected,
      PartitionProgress progress,
      long watermark,
      RequestSpans requests) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<Void> previous = tail;
    tail = done;
    CompletableFuture.allOf(steps.toArray(CompletableFuture[]::new))
        .handle((v, error) -> error)
        .thenCombine(previous.handle((v, error) -> null), (error, ignored) -> error)
        // Off the thread that completed the previous commit: with Redis that is the client's I/O
        // thread, which must go back to reading replies.
        .thenAcceptAsync(
            stepError ->
                writeOrFail(steps, own, rejected, progress, watermark, requests, stepError, done),
            pool);
    return done;
  }

  /** Whatever goes wrong, {@code done} completes: a request never waits forever on its commit. */
  private void writeOrFail(
      List<CompletableFuture<ShardStep>> steps,
      CoreChanges own,
      List<DeadLetter> rejected,
      PartitionProgress progress,
      long watermark,
      RequestSpans requests,
      Throwable stepError,
      CompletableFuture<Void> done) {
    try {
      write(steps, own, rejected, progress, watermark, requests, stepError, done);
    } catch (RuntimeException e) {
      failure = e;
      done.completeExceptionally(e);
    }
  }

  /** Completes once every commit queued so far has completed, whether or not it succeeded. */
  CompletableFuture<Void> drained() {
    return tail.handle((v, error) -> null);
  }

  /** Whether a step or a commit failed; the runtime must then be rebuilt from the store. */
  boolean failed() {
    return failure != null;
  }

  private void write(
      List<CompletableFuture<ShardStep>> steps,
      CoreChanges own,
      List<DeadLetter> rejected,
      PartitionProgress progress,
      long watermark,
      RequestSpans requests,
      Throwable stepError,
      CompletableFuture<Void> done) {
    if (failure != null) {
      done.completeExceptionally(
          new StateUnavailableException(
              "an earlier commit of pipeline '" + pipeline + "' failed", failure));
      return;
    }
    if (stepError != null) {
      failure = unwrap(stepError);
      done.completeExceptionally(failure);
      return;
    }
    List<ShardChanges> changes = new ArrayList<>();
    List<RenderedPane> rendered = new ArrayList<>();
    List<MergedWindow> mergedAway = new ArrayList<>();
    List<KeyedWindow> finals = new ArrayList<>();
    List<DeadLetter> letters = new ArrayList<>(rejected);
    IngestResult outcome = IngestResult.EMPTY;
    for (CompletableFuture<ShardStep> f : steps) {
      ShardStep step = f.join();
      outcome = outcome.plus(step.outcome());
      if (step.changes() != null && !step.changes().isEmpty()) {
        changes.add(step.changes());
      }
      rendered.addAll(step.panes());
      mergedAway.addAll(step.mergedAway());
      finals.addAll(step.closedWithoutPane());
      letters.addAll(step.deadLetters());
      shardOutputs[step.shard()] = step.outputWatermark();
    }
    OutputProgress moved = progress(watermark);
    // A waiting request's receipt holds what was read and what the shards made of it.
    PartitionProgress landed =
        progress == null || progress.receipt() == null
            ? progress
            : progress.withReceipt(progress.receipt().plus(outcome));
    Commit commit =
        new Commit(
            changes,
            own.tracker(),
            own.lateness(),
            rendered,
            mergedAway,
            finals,
            letters,
            landed,
            moved,
            null);
    if (commit.isEmpty()) {
      done.complete(null);
      return;
    }
    CommitTracer.CommitSpan span =
        requests.isEmpty()
            ? CommitTracer.CommitSpan.NONE
            : tracer.start(pipeline, partition, requests);
    Commit written = span.traceparent() == null ? commit : commit.traced(span.traceparent());
    int events = outcome.events();
    long started = System.nanoTime();
    state
        .commit(written)
        .whenComplete(
            (ids, error) -> {
              span.end(events, rendered.size(), error == null ? null : unwrap(error));
              if (error != null
                  && unwrap(error) instanceof UnreplicatedCommitException unreplicated) {
                // The commit stands in Redis: the engines are not ahead of it.
                observer.committed(pipeline, System.nanoTime() - started);
                publish(commit, unreplicated.paneIds());
                done.completeExceptionally(unreplicated);
              } else if (error != null) {
                failure = unwrap(error);
                observer.commitFailed(pipeline);
                done.completeExceptionally(failure);
              } else {
                observer.committed(pipeline, System.nanoTime() - started);
                publish(commit, ids);
                done.complete(null);
              }
            });
  }

  /**
   * The progress this commit makes, null when it moved neither watermark. The output watermark is
   * known once every shard has stepped, which any advance of the input watermark makes them do: a
   * runtime rebuilt from the store records no progress before that, so none goes back.
   */
  private OutputProgress progress(long watermark) {
    long output = watermark;
    for (long o : shardOutputs) {
      if (o == Long.MIN_VALUE) {
        return null;
      }
      output = Math.min(output, o);
    }
    OutputProgress now = recorded.max(new OutputProgress(output, watermark));
    if (now.equals(recorded)) {
      return null;
    }
    recorded = now;
    return now;
  }

  private void publish(Commit commit, List<String> ids) {
    List<RenderedPane> rendered = commit.panes();
    List<DeadLetter> letters = commit.deadLetters();
    try {
      // A commit that logged only merges or finals, or only moved the progress, is announced too,
      // with no pane: streams carry merges and progress, the Kafka forwarder finals.
      if (!rendered.isEmpty()
          || !commit.mergedAway().isEmpty()
          || !commit.finals().isEmpty()
          || commit.outputProgress() != null) {
        List<PublishedPane> out = new ArrayList<>(rendered.size());
        for (int i = 0; i < rendered.size(); i++) {
          RenderedPane r = rendered.get(i);
          out.add(new PublishedPane(ids.get(i), pipeline, r.pane(), r.json()));
        }
        panes.onPanes(pipeline, out);
      }
      if (!letters.isEmpty()) {
        deadLetters.onDeadLetters(pipeline, letters);
      }
    } catch (RuntimeException e) {
      // The commit stands; a listener's failure must not turn it into an error for the producer.
      log.error("a listener failed on panes of {}", pipeline, e);
    }
  }

  private static Throwable unwrap(Throwable t) {
    return t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
  }
}
