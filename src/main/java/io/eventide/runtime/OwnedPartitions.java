package io.eventide.runtime;

import io.eventide.core.PartitionWatermarks;
import io.eventide.core.PipelineCore;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.engine.Time;
import io.eventide.state.PartitionState;
import io.eventide.state.PartitionStore;
import io.eventide.state.PartitionWatermark;
import io.eventide.state.StaleLineageException;
import io.eventide.state.StateStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/**
 * The partitions this process owns in cluster mode (docs/scaling.md), each a {@link
 * PipelineRuntime} of one shard over the partition's state. Whoever assigns partitions (the Kafka
 * consumer group) opens and closes them here and hands each partition's records over in order;
 * every run of records is committed with the offset after it, so that a partition resumes exactly
 * where its last commit left it, whichever process takes it over.
 *
 * <p>The partitions of one pipeline owned here share one {@link PartitionWatermarks}, refreshed
 * from the store at every beat with what the other partitions' owners committed.
 */
@Component
@ConditionalOnBooleanProperty("eventide.cluster.enabled")
public final class OwnedPartitions {
  private static final Logger log = LoggerFactory.getLogger(OwnedPartitions.class);

  /** A partition of a pipeline. */
  public record Id(String pipeline, int partition) {}

  /**
   * An owned partition: its runtime, the pipeline's partition count, and the offset of the last
   * record of each Kafka source partition applied to it (changed only by the thread that hands the
   * partition's records over).
   */
  /**
   * @param earlierLineages lineages of records found to be older than the runtime's: skipped
   *     without asking the registry again (a log replayed after a reset holds many)
   */
  private record Owned(
      PipelineRuntime runtime,
      int partitions,
      Map<String, Long> origins,
      Set<String> earlierLineages) {}

  /** Lineages remembered per partition; a few resets' worth, then asked again. */
  private static final int EARLIER_LINEAGES_KEPT = 16;

  private final Map<Id, Owned> owned = new ConcurrentHashMap<>();
  private final Map<String, PartitionWatermarks> views = new ConcurrentHashMap<>();
  private final RunningPipelines runtimes;
  private final PartitionStore partitions;
  private final StateStore store;
  private final PipelineRegistry registry;

  public OwnedPartitions(
      RunningPipelines runtimes,
      PartitionStore partitions,
      StateStore store,
      PipelineRegistry registry) {
    this.runtimes = runtimes;
    this.partitions = partitions;
    this.store = store;
    this.registry = registry;
    runtimes.onBeat(this::tick);
  }

  /**
   * Takes a partition over: fences its earlier owner and reads its state.
   *
   * @return the offset to read the partition's log from; fails with {@link PipelineGoneException}
   *     when the pipeline is no longer defined
   */
  public CompletableFuture<Long> open(Id id, int partitionCount) {
    Owned earlier = owned.remove(id);
    if (earlier != null) {
      earlier.runtime().close();
    }
    return registry
        .find(id.pipeline())
        .toFuture()
        .thenCompose(
            definition -> {
              if (definition == null) {
                throw new PipelineGoneException(id.pipeline());
              }
              return opened(definition, id, partitionCount)
                  .thenCompose(state -> stillDefined(id, state))
                  .thenCompose(
                      state ->
                          partitions
                              .partitionWatermarks(id.pipeline(), partitionCount)
                              .thenApply(others -> started(definition, id, state, others)));
            });
  }

  /**
   * The state opened, if the pipeline is still defined. A delete between the registry's answer and
   * the open drops the pipeline's meta first, and the open wrote it back: undone here, so that a
   * deleted pipeline's state never comes back.
   */
  private CompletableFuture<PartitionState> stillDefined(Id id, PartitionState state) {
    return registry
        .find(id.pipeline())
        .toFuture()
        .thenCompose(
            current ->
                current != null
                    ? CompletableFuture.completedFuture(state)
                    : state
                        .release()
                        .thenCompose(
                            v ->
                                CompletableFuture.<PartitionState>failedFuture(
                                    new PipelineGoneException(id.pipeline()))));
  }

  /**
   * Opens the partition's state; state of another lineage is left over from a reset or delete that
   * stopped half way: when this definition is the registry's, it is dropped and opened afresh.
   */
  private CompletableFuture<PartitionState> opened(
      PipelineDefinition definition, Id id, int partitionCount) {
    String lineage = definition.revision().lineage();
    return partitions
        .openPartition(id.pipeline(), lineage, id.partition(), partitionCount)
        .exceptionallyCompose(
            error ->
                cause(error) instanceof StaleLineageException
                    ? store
                        .drop(id.pipeline())
                        .thenCompose(
                            v ->
                                partitions.openPartition(
                                    id.pipeline(), lineage, id.partition(), partitionCount))
                    : CompletableFuture.failedFuture(error));
  }

  private long started(
      PipelineDefinition definition, Id id, PartitionState state, List<PartitionWatermark> others) {
    PartitionWatermarks view =
        views.computeIfAbsent(
            id.pipeline(),
            p ->
                new PartitionWatermarks(
                    others.size(), definition.watermark().idleTimeout().toMillis()));
    others.forEach(o -> view.observe(o.partition(), o.sourceWatermark(), o.heard()));
    PipelineRuntime runtime =
        runtimes.partitionRuntime(
            definition, state, new PipelineCore.Partition(id.partition(), view));
    owned.put(
        id, new Owned(runtime, others.size(), new HashMap<>(state.origins()), new HashSet<>()));
    return state.nextOffset();
  }

  /** Whether this process owns the partition and can apply to it. */
  public boolean healthy(Id id) {
    Owned o = owned.get(id);
    return o != null && !o.runtime().failed();
  }

  /**
   * Applies a run of the partition's records, in order, each committed with the offset after it
   * ({@code offsets[i]} is record {@code i}'s). Records logged for an earlier lineage of the
   * pipeline (before a reset) are skipped, and so are records of a Kafka source logged again: at or
   * below the last offset of their source partition applied here (a source's reader that died
   * between logging a poll and committing its offsets logs the poll again).
   *
   * @return completes once every commit landed: true when all records were taken, false when a
   *     record of a later lineage stopped the run (the pipeline was reset: the partition must be
   *     opened again and read from its committed offset)
   */
  public CompletableFuture<Boolean> apply(Id id, List<LogRecord> records, long[] offsets) {
    Owned o = owned.get(id);
    if (o == null || o.runtime().failed()) {
      return CompletableFuture.completedFuture(false);
    }
    PipelineRuntime runtime = o.runtime();
    String lineage = runtime.definition().revision().lineage();
    Run run = new Run();
    List<CompletableFuture<?>> commits = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      LogRecord r = records.get(i);
      if (!r.lineage().equals(lineage)) {
        if (!o.earlierLineages().contains(r.lineage())) {
          if (laterLineage(id.pipeline(), lineage)) {
            commits.add(run.flush(runtime, offsets[i]));
            return all(commits).thenApply(v -> false);
          }
          if (o.earlierLineages().size() == EARLIER_LINEAGES_KEPT) {
            o.earlierLineages().clear();
          }
          o.earlierLineages().add(r.lineage());
        }
        run.pending = true;
        continue;
      }
      if (r.origin() != null) {
        Long applied = o.origins().get(r.origin().partition());
        if (applied != null && r.origin().offset() <= applied) {
          run.pending = true;
          continue;
        }
      }
      if (r.appendedTo() != null) {
        expect(id, r);
      }
      if (run.pending && !Objects.equals(run.request, r.request())) {
        // A waiting request's receipt must count its own records only.
        commits.add(run.flush(runtime, offsets[i]));
      }
      run.request = r.request();
      if (r.origin() != null) {
        o.origins().put(r.origin().partition(), r.origin().offset());
        run.origins.put(r.origin().partition(), r.origin().offset());
      }
      switch (r.kind()) {
        case EVENT -> run.event(r, false);
        case EVENTS -> run.events(r);
        case CLOUD_EVENT -> run.event(r, true);
        case UNREADABLE -> run.unreadable(r);
        case WATERMARK -> {
          commits.add(run.flush(runtime, offsets[i]));
          long value = Long.parseLong(new String(r.body(), StandardCharsets.UTF_8));
          commits.add(postWatermark(runtime, r, value, offsets[i] + 1));
          continue;
        }
      }
      run.pending = true;
    }
    if (!records.isEmpty()) {
      commits.add(run.flush(runtime, offsets[records.size() - 1] + 1));
    }
    return all(commits).thenApply(v -> true);
  }

  /**
   * The other partitions the record's append wrote to hold the pipeline's watermark back until
   * their owners have read them, before this partition's events of that append can move it.
   */
  private void expect(Id id, LogRecord r) {
    PartitionWatermarks view = views.get(id.pipeline());
    if (view == null) {
      return;
    }
    BitSet partitions = r.appendedTo();
    for (int q = partitions.nextSetBit(0);
        q >= 0 && q < view.partitions();
        q = partitions.nextSetBit(q + 1)) {
      if (q != id.partition()) {
        view.expect(q, r.readAt());
      }
    }
  }

  /**
   * A watermark the partition's sources cannot take (one source more than the cap) is dropped; the
   * replica that logged it could not know.
   */
  private static CompletableFuture<?> postWatermark(
      PipelineRuntime runtime, LogRecord r, long value, long nextOffset) {
    try {
      return runtime.postWatermark(r.source(), value, nextOffset, r.traceparent());
    } catch (InvalidInputException e) {
      log.warn(
          "a logged watermark of {} was dropped: {}", runtime.definition().name(), e.getMessage());
      return CompletableFuture.completedFuture(null);
    }
  }

  /**
   * Whether the registry's lineage is no longer the runtime's {@code current}: a record of another
   * lineage is then of the later one. Otherwise that record was logged before a reset, and is
   * skipped.
   */
  private boolean laterLineage(String pipeline, String current) {
    PipelineDefinition d = registry.find(pipeline).toFuture().join();
    return d != null && !d.revision().lineage().equals(current);
  }

  /**
   * The events (with the records they came in, for when each was read and its source) and the
   * unreadable lines read since the last commit of a run of records.
   */
  private static final class Run {
    EventTexts events = new EventTexts(256);
    List<LogRecord> records = new ArrayList<>();
    List<String> unreadable = new ArrayList<>();

    /** Whether records were read since the last commit, so that their offset must be committed. */
    boolean pending;

    /** The request waiting for the run's records, whose receipt the commit leaves; else null. */
    String request;

    /** Where the run leaves the Kafka source partitions its records were read from. */
    Map<String, Long> origins = new HashMap<>();

    /** The traced requests whose records were read since the last commit. */
    final RequestSpans.Gatherer requests = new RequestSpans.Gatherer();

    void event(LogRecord r, boolean cloudEvent) {
      if (cloudEvent) {
        events.addCloudEvent(r.body());
      } else {
        events.add(r.body());
      }
      records.add(r);
      requests.add(r.traceparent());
    }

    /** A request's events for the partition in one record: each of them read as of it. */
    void events(LogRecord r) {
      int read = EventFrames.read(r.body(), events);
      for (int i = 0; i < read; i++) {
        records.add(r);
      }
      requests.add(r.traceparent());
    }

    void unreadable(LogRecord r) {
      unreadable.add(new String(r.body(), StandardCharsets.UTF_8));
      requests.add(r.traceparent());
    }

    /** Commits what was read so far, with {@code nextOffset}; nothing when nothing was read. */
    CompletableFuture<?> flush(PipelineRuntime runtime, long nextOffset) {
      if (!pending) {
        return CompletableFuture.completedFuture(null);
      }
      List<LogRecord> read = records;
      CompletableFuture<?> committed =
          runtime.ingest(
              events,
              unreadable,
              i -> read.get(i).source(),
              new LoggedRun(
                  i -> read.get(i).readAt(),
                  nextOffset,
                  request,
                  i -> read.get(i).position(),
                  origins,
                  requests.take()));
      events = new EventTexts(256);
      records = new ArrayList<>();
      unreadable = new ArrayList<>();
      origins = new HashMap<>();
      pending = false;
      return committed;
    }
  }

  private static CompletableFuture<Void> all(List<CompletableFuture<?>> futures) {
    return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
  }

  /**
   * Lets a partition go once what was handed over is committed (the group revoked it); the next
   * owner reads from the last commit.
   */
  public CompletableFuture<Void> close(Id id) {
    Owned o = owned.remove(id);
    forgetViewIfUnused(id.pipeline());
    return o == null ? CompletableFuture.completedFuture(null) : o.runtime().close();
  }

  private void forgetViewIfUnused(String pipeline) {
    if (owned.keySet().stream().noneMatch(k -> k.pipeline().equals(pipeline))) {
      views.remove(pipeline);
    }
  }

  /** The partitions owned now. */
  public List<Id> ids() {
    return List.copyOf(owned.keySet());
  }

  /** The runtimes of a pipeline's partitions owned now (for metrics). */
  public List<PipelineRuntime> runtimes(String pipeline) {
    List<PipelineRuntime> out = new ArrayList<>();
    owned.forEach(
        (id, o) -> {
          if (id.pipeline().equals(pipeline)) {
            out.add(o.runtime());
          }
        });
    return out;
  }

  /**
   * What an owned partition's own sources say of event time (its part in the pipeline's watermark),
   * or {@code Time.MIN} when it is not owned here.
   */
  public long sourceWatermark(Id id) {
    PartitionWatermarks view = views.get(id.pipeline());
    return view == null || !owned.containsKey(id) ? Time.MIN : view.watermark(id.partition());
  }

  /**
   * Takes definitions that compute the same as the owned partitions' (see {@link
   * PipelineLifecycle}) from the registry as it is now.
   */
  public void redefine(PipelineDefinition definition) {
    owned.forEach(
        (id, o) -> {
          if (id.pipeline().equals(definition.name())) {
            o.runtime().redefine(definition);
          }
        });
  }

  /**
   * The beat (the clock of {@link RunningPipelines}): every pipeline's view of its partitions is
   * refreshed from the store, then each owned partition's idle sources and processing-time timers
   * move on, as whole pipelines' do.
   */
  private void tick() {
    Map<String, List<Owned>> byPipeline = new HashMap<>();
    owned.forEach(
        (id, o) -> byPipeline.computeIfAbsent(id.pipeline(), p -> new ArrayList<>()).add(o));
    byPipeline.forEach(
        (pipeline, list) ->
            partitions
                .partitionWatermarks(pipeline, list.get(0).partitions())
                .whenCompleteAsync(
                    (others, error) -> {
                      PartitionWatermarks view = views.get(pipeline);
                      if (others != null && view != null) {
                        others.forEach(
                            o -> view.observe(o.partition(), o.sourceWatermark(), o.heard()));
                      }
                      for (Owned o : list) {
                        if (!o.runtime().failed()) {
                          o.runtime().tick();
                        }
                      }
                    },
                    runtimes.workers()));
  }

  private static Throwable cause(Throwable error) {
    return error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error;
  }
}
