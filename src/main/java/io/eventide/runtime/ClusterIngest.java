package io.eventide.runtime;

import io.eventide.core.IncomingEvent;
import io.eventide.core.IngestBounds;
import io.eventide.core.IngestResult;
import io.eventide.core.KeyedWindow;
import io.eventide.core.OutputProgress;
import io.eventide.core.PartitionWatermarks;
import io.eventide.core.PipelineCore;
import io.eventide.core.Rejections;
import io.eventide.core.RenderBudget;
import io.eventide.core.ShardCore;
import io.eventide.core.ShardSnapshot;
import io.eventide.core.WatermarkMode;
import io.eventide.core.WatermarkTracker;
import io.eventide.core.WindowPages;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import io.eventide.engine.ProcessingClock;
import io.eventide.engine.Time;
import io.eventide.engine.WindowSnapshot;
import io.eventide.state.PartitionStore;
import io.eventide.state.PartitionWatermark;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/**
 * Requests in cluster mode (docs/scaling.md): a batch is read and checked here exactly as one
 * process reads it (bad input is refused the same way), and its events are logged to the partitions
 * of their keys, to be applied by whichever replica owns each partition. The answer comes once the
 * log has them durably. A watermark is logged to every partition, so that each applies it in order
 * with the events logged before it.
 *
 * <p>Events this replica would dead-letter (invalid, from the future) are logged too, read as of
 * the same wall-clock time: the owner reaches the same verdict and writes the dead letter with its
 * commit, so that it is recorded once, with the partition's state.
 */
@Component
@ConditionalOnBooleanProperty("eventide.cluster.enabled")
public final class ClusterIngest implements PipelineLifecycleListener {
  private final IngestLog log;
  private final PartitionStore store;
  private final ProcessingClock clock;
  private final IngestBounds bounds;

  /** A reading core per pipeline, for the revision and partition count it was built for. */
  private final Map<String, Reader> readers = new ConcurrentHashMap<>();

  private record Reader(PipelineDefinition definition, int partitions, PipelineCore core) {}

  /** A logged batch: what reading it found, and its last record's offset in each partition. */
  private record Appended(IngestResult result, Map<Integer, Long> lastOffsets) {}

  /**
   * A waiting request looks at its receipts soon after its records are logged (an owner's poll and
   * commit take a few milliseconds), then less and less often.
   */
  private static final long FIRST_LOOK_MS = 5;

  private static final long LAST_LOOK_MS = 100;

  private final Duration applyTimeout;

  /** Whether a request's plain events travel as one record per partition ({@link EventFrames}). */
  private final boolean batchEvents;

  public ClusterIngest(
      IngestLog log,
      PartitionStore store,
      ProcessingClock clock,
      IngestProperties ingest,
      ClusterProperties cluster) {
    this.log = log;
    this.applyTimeout = cluster.applyTimeout();
    this.batchEvents = cluster.batchEvents();
    this.store = store;
    this.clock = clock;
    this.bounds = ingest.bounds();
  }

  /** A deleted pipeline's reading core goes; a pipeline defined again gets a new one. */
  @Override
  public void deleted(String name) {
    readers.remove(name);
  }

  /** The pipeline as requests see it in cluster mode: its log, and its partitions' watermarks. */
  public CompletableFuture<PipelineInput> input(PipelineDefinition definition) {
    return log.partitions(definition.name()).thenApply(n -> new Logged(reader(definition, n)));
  }

  /** The pipeline's watermarks as its partitions' owners last committed them. */
  public CompletableFuture<WatermarkView> watermark(PipelineDefinition definition) {
    return log.partitions(definition.name())
        .thenCompose(n -> store.partitionWatermarks(definition.name(), n))
        .thenApply(partitions -> view(definition, partitions));
  }

  /**
   * How far the pipeline's output has got: the least over its partitions of what their owners last
   * committed, a partition never committed holding it at the beginning of time (its engine would
   * take any event).
   */
  public CompletableFuture<OutputProgress> progress(PipelineDefinition definition) {
    return log.partitions(definition.name())
        .thenCompose(n -> store.partitionWatermarks(definition.name(), n))
        .thenApply(
            partitions -> {
              OutputProgress least = new OutputProgress(Time.MAX, Time.MAX);
              for (PartitionWatermark p : partitions) {
                least = least.min(p.progress());
              }
              return partitions.isEmpty() ? OutputProgress.NONE : least;
            });
  }

  /** The lateness advisors of the pipeline's partitions, as their owners last committed them. */
  public CompletableFuture<List<String>> lateness(PipelineDefinition definition) {
    return log.partitions(definition.name())
        .thenCompose(n -> store.partitionLateness(definition.name(), n));
  }

  /**
   * The open windows of a key (or of every key) as their partitions' owners last committed them,
   * read from the store: any replica can look into any partition. Without a key, a page reads from
   * each partition only the keys that can be on it, in key order from the cursor's key: each key
   * the store holds has a window, so {@code limit} keys after the cursor's fill the page.
   */
  public CompletableFuture<List<WindowSnapshot>> explain(
      PipelineDefinition definition, String key, KeyedWindow after, int limit) {
    String name = definition.name();
    return log.partitions(name)
        .thenCompose(
            n -> {
              if (key != null) {
                int p = reader(definition, n).core.shardOf(key);
                return store
                    .readPartition(name, p, key)
                    .thenApply(shard -> explain(definition, p, shard, key, after, limit));
              }
              String from = after == null ? null : after.key();
              // The cursor's key may have no window after the cursor's: one key more.
              int keys = after == null ? limit : limit + 1;
              List<CompletableFuture<List<WindowSnapshot>>> parts = new ArrayList<>(n);
              for (int p = 0; p < n; p++) {
                int partition = p;
                parts.add(
                    store
                        .readPartitionKeys(name, p, from, keys)
                        .thenApply(
                            shard -> explain(definition, partition, shard, null, after, limit)));
              }
              return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                  .thenApply(
                      v ->
                          WindowPages.first(
                              parts.stream().map(CompletableFuture::join).toList(), limit));
            });
  }

  /** Key states read from the store for pages of open windows, the cost of those reads. */
  public long keyStatesRead() {
    return store.keyStatesRead();
  }

  /** The windows a committed shard holds, decoded by a shard core built to look only. */
  private List<WindowSnapshot> explain(
      PipelineDefinition definition,
      int partition,
      ShardSnapshot shard,
      String key,
      KeyedWindow after,
      int limit) {
    return new ShardCore(
            partition,
            bounds.maxOpenWindows(),
            definition,
            clock,
            false,
            shard,
            bounds,
            RenderBudget.UNBOUNDED)
        .explain(key, after, limit);
  }

  private WatermarkView view(PipelineDefinition definition, List<PartitionWatermark> partitions) {
    long now = clock.now();
    long idleTimeout = definition.watermark().idleTimeout().toMillis();
    PartitionWatermarks rule = new PartitionWatermarks(partitions.size(), idleTimeout);
    List<WatermarkTracker.SourceView> sources = new ArrayList<>(partitions.size());
    for (PartitionWatermark p : partitions) {
      rule.observe(p.partition(), p.sourceWatermark(), p.heard());
      if (p.sourceWatermark() != Time.MIN) {
        sources.add(
            new WatermarkTracker.SourceView(
                "partition:" + p.partition(),
                p.sourceWatermark(),
                now - p.heard() > idleTimeout,
                p.heard()));
      }
    }
    long input = rule.inputWatermark(now);
    return new WatermarkView(input, input, now, sources);
  }

  /**
   * Marks the first of an append's first {@code moving} records (those that move a source: its
   * events, or a watermark) in each partition with every partition they go to: an owner that reads
   * one holds the pipeline's watermark back for the others until it hears from them, so that a
   * partition read first cannot make the append's events in another late
   * (docs/scaling.md#watermarks-across-partitions). Refused texts are left out: they move no
   * source, and would only hold the pipeline back for nothing. An append to one partition needs no
   * mark.
   */
  private static List<IngestLog.Entry> markPartitions(
      List<IngestLog.Entry> entries, int moving, int partitions) {
    BitSet written = new BitSet(partitions);
    for (int i = 0; i < moving; i++) {
      written.set(entries.get(i).partition());
    }
    if (written.cardinality() < 2) {
      return entries;
    }
    BitSet unmarked = (BitSet) written.clone();
    for (int i = 0; i < moving && !unmarked.isEmpty(); i++) {
      IngestLog.Entry e = entries.get(i);
      if (unmarked.get(e.partition())) {
        unmarked.clear(e.partition());
        entries.set(
            i, new IngestLog.Entry(e.partition(), e.key(), e.record().withAppendedTo(written)));
      }
    }
    return entries;
  }

  private Reader reader(PipelineDefinition definition, int partitions) {
    return readers.compute(
        definition.name(),
        (name, r) ->
            r != null
                    && r.partitions == partitions
                    && r.definition.revision().equals(definition.revision())
                ? r
                : new Reader(
                    definition,
                    partitions,
                    new PipelineCore(
                        definition,
                        WatermarkMode.FROM_SOURCES,
                        partitions,
                        Time.MIN,
                        null,
                        false,
                        bounds)));
  }

  /** One request's view of a pipeline: everything it takes goes to the log. */
  private final class Logged implements PipelineInput {
    private final Reader reader;

    Logged(Reader reader) {
      this.reader = reader;
    }

    @Override
    public PipelineDefinition definition() {
      return reader.definition;
    }

    @Override
    public CompletableFuture<IngestResult> ingest(
        EventTexts events, List<String> unreadable, IntFunction<String> defaultSource) {
      return log(events, unreadable, defaultSource, false, null, null, null, null)
          .thenApply(Appended::result);
    }

    @Override
    public void checkReadable(EventTexts events) {
      UnreadableBatchException.refuseUnreadable(reader.core.read(events, i -> null, clock.now()));
    }

    @Override
    public CompletableFuture<IngestResult> post(
        EventTexts events, boolean strict, String traceparent) {
      return log(events, List.of(), i -> null, strict, null, null, null, traceparent)
          .thenApply(Appended::result);
    }

    @Override
    public CompletableFuture<IngestResult> ingestPolled(
        EventTexts events,
        List<String> unreadable,
        IntFunction<String> defaultSource,
        IntFunction<SourceOffset> eventOffset,
        IntFunction<SourceOffset> unreadableOffset) {
      return log(
              events, unreadable, defaultSource, false, null, eventOffset, unreadableOffset, null)
          .thenApply(Appended::result);
    }

    /**
     * Logs the batch with a request id in every record, then waits until the partitions' owners
     * have committed past the request's last record in each, and answers with their receipts.
     */
    @Override
    public CompletableFuture<Applied> postApplied(
        EventTexts events, boolean strict, String traceparent) {
      String request = UUID.randomUUID().toString();
      long deadline = System.nanoTime() + applyTimeout.toNanos();
      return log(events, List.of(), i -> null, strict, request, null, null, traceparent)
          .thenCompose(
              appended -> {
                CompletableFuture<Applied> answer = new CompletableFuture<>();
                awaitReceipt(appended, request, deadline, FIRST_LOOK_MS, answer);
                return answer;
              });
    }

    private void awaitReceipt(
        Appended appended,
        String request,
        long deadline,
        long delayMs,
        CompletableFuture<Applied> answer) {
      store
          .receipt(reader.definition.name(), request, appended.lastOffsets())
          .whenComplete(
              (receipt, error) -> {
                if (error != null) {
                  answer.completeExceptionally(error);
                } else if (receipt.isPresent()) {
                  // The owners list what they refused; what reading refused is known here.
                  IngestResult counts = receipt.get();
                  Rejections all = appended.result().rejections().plus(counts.rejections());
                  answer.complete(
                      new Applied(
                          counts.withRejections(
                              Rejections.of(bounds.maxRejectedListed(), all.listed())),
                          true));
                } else if (appended.lastOffsets().isEmpty()) {
                  answer.complete(new Applied(appended.result(), true));
                } else if (System.nanoTime() + delayMs * 1_000_000 > deadline) {
                  answer.complete(new Applied(appended.result(), false));
                } else {
                  CompletableFuture.delayedExecutor(delayMs, TimeUnit.MILLISECONDS)
                      .execute(
                          () ->
                              awaitReceipt(
                                  appended,
                                  request,
                                  deadline,
                                  Math.min(2 * delayMs, LAST_LOOK_MS),
                                  answer));
                }
              });
    }

    /**
     * Reads and logs a batch; its records carry {@code request} when it waits (else null), where
     * each was read from when it comes from a Kafka source (else the offsets are null), and the
     * request's span when it is traced (else {@code traceparent} is null). With {@code strict}, a
     * batch with an event reading finds invalid is refused before anything is logged.
     */
    private CompletableFuture<Appended> log(
        EventTexts events,
        List<String> unreadable,
        IntFunction<String> defaultSource,
        boolean strict,
        String request,
        IntFunction<SourceOffset> eventOffset,
        IntFunction<SourceOffset> unreadableOffset,
        String traceparent) {
      long now = clock.now();
      String lineage = reader.definition.revision().lineage();
      int partitions = reader.partitions;
      PipelineCore.ReadBatch batch = reader.core.read(events, defaultSource, now);
      if (strict) {
        UnreadableBatchException.refuseUnreadable(batch);
      }
      IntFunction<SourceOffset> origin = eventOffset == null ? i -> null : eventOffset;
      List<IngestLog.Entry> entries = new ArrayList<>(events.size() + unreadable.size());
      int logged = 0;
      for (int p = 0; p < partitions; p++) {
        List<IncomingEvent> part = batch.part(p);
        String shared = sharedSource(part, events, request, eventOffset);
        if (shared != null) {
          for (int from = 0; from < part.size(); ) {
            int count = EventFrames.fitting(part, from);
            entries.add(
                new IngestLog.Entry(
                    p,
                    null,
                    new LogRecord(
                        LogRecord.Kind.EVENTS,
                        lineage,
                        now,
                        shared.isEmpty() ? null : shared,
                        EventFrames.write(part, from, count),
                        null,
                        null,
                        -1,
                        traceparent,
                        null)));
            from += count;
          }
          logged += part.size();
          continue;
        }
        for (IncomingEvent in : part) {
          // A source the event names is read again by the owner; only a default must travel.
          String source = in.event().source() == null ? in.source() : null;
          entries.add(
              new IngestLog.Entry(
                  p,
                  in.event().key(),
                  new LogRecord(
                      eventKind(events, in.index()),
                      lineage,
                      now,
                      source,
                      in.bytes(),
                      request,
                      origin.apply(in.index()),
                      request == null ? -1 : in.index(),
                      traceparent,
                      null)));
          logged++;
        }
      }
      int eventRecords = entries.size();
      // Refused texts are logged too, for their owner to refuse the same way and dead-letter.
      for (PipelineCore.Refusal refused : batch.refusals()) {
        byte[] text = events.bytes(refused.text());
        entries.add(
            new IngestLog.Entry(
                Math.floorMod(Arrays.hashCode(text), partitions),
                null,
                new LogRecord(
                    refused.unreadable()
                        ? LogRecord.Kind.UNREADABLE
                        : eventKind(events, refused.text()),
                    lineage,
                    now,
                    null,
                    text,
                    request,
                    origin.apply(refused.text()),
                    -1,
                    traceparent,
                    null)));
      }
      for (int i = 0; i < unreadable.size(); i++) {
        String line = unreadable.get(i);
        entries.add(
            new IngestLog.Entry(
                Math.floorMod(line.hashCode(), partitions),
                null,
                new LogRecord(
                    LogRecord.Kind.UNREADABLE,
                    lineage,
                    now,
                    null,
                    line.getBytes(StandardCharsets.UTF_8),
                    request,
                    unreadableOffset == null ? null : unreadableOffset.apply(i),
                    -1,
                    traceparent,
                    null)));
      }
      IngestResult result =
          batch.result(new IngestResult(logged, 0, 0, 0, 0, 0, 0, unreadable.size()));
      return log.append(reader.definition.name(), markPartitions(entries, eventRecords, partitions))
          .thenApply(last -> new Appended(result, last));
    }

    /**
     * When a partition's events of a request can travel as one record ({@link
     * LogRecord.Kind#EVENTS}), the default source they share ("" for none), else null: when nobody
     * waits for their receipt (which names each event's position), none was read from a Kafka
     * source (each has its own offset), none is a CloudEvent and they share their default source;
     * with {@code eventide.cluster.batch-events} on, and more than one event.
     */
    private String sharedSource(
        List<IncomingEvent> part,
        EventTexts events,
        String request,
        IntFunction<SourceOffset> eventOffset) {
      if (!batchEvents || part.size() < 2 || request != null || eventOffset != null) {
        return null;
      }
      String shared = null;
      for (IncomingEvent in : part) {
        if (events.isCloudEvent(in.index())) {
          return null;
        }
        String source = in.event().source() == null ? in.source() : null;
        String travelling = source == null ? "" : source;
        if (shared == null) {
          shared = travelling;
        } else if (!shared.equals(travelling)) {
          return null;
        }
      }
      return shared;
    }

    /** How text {@code i} is logged: the owner must read a CloudEvent as one. */
    private static LogRecord.Kind eventKind(EventTexts events, int i) {
      return events.isCloudEvent(i) ? LogRecord.Kind.CLOUD_EVENT : LogRecord.Kind.EVENT;
    }

    @Override
    public CompletableFuture<Boolean> postWatermark(String source, long value, String traceparent) {
      long now = clock.now();
      String lineage = reader.definition.revision().lineage();
      byte[] body = Long.toString(value).getBytes(StandardCharsets.UTF_8);
      List<IngestLog.Entry> entries = new ArrayList<>(reader.partitions);
      for (int p = 0; p < reader.partitions; p++) {
        entries.add(
            new IngestLog.Entry(
                p,
                null,
                new LogRecord(LogRecord.Kind.WATERMARK, lineage, now, source, body, traceparent)));
      }
      return log.append(
              reader.definition.name(), markPartitions(entries, entries.size(), reader.partitions))
          .thenApply(last -> true);
    }

    @Override
    public CompletableFuture<WatermarkView> watermark() {
      return ClusterIngest.this.watermark(reader.definition);
    }
  }
}
