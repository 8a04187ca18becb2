package io.eventide.runtime;

import io.eventide.core.IngestResult;
import io.eventide.core.read.EventTexts;
import io.eventide.definition.PipelineDefinition;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * What a request does to a pipeline: hand it events and watermarks, and read its watermark. One
 * process applies them itself ({@link PipelineRuntime}); in cluster mode they are logged for the
 * partitions' owners ({@link ClusterIngest}).
 */
public interface PipelineInput {

  PipelineDefinition definition();

  /**
   * Reads, checks and takes one batch: applied and committed, or in cluster mode logged durably.
   *
   * @param unreadable lines that are not JSON at all, dead-lettered as invalid
   * @param defaultSource the watermark source of event {@code i} when the event names none
   */
  CompletableFuture<IngestResult> ingest(
      EventTexts events, List<String> unreadable, IntFunction<String> defaultSource);

  default CompletableFuture<IngestResult> ingest(EventTexts events) {
    return ingest(events, List.of(), i -> null);
  }

  /**
   * Like {@link #ingest(EventTexts, List, IntFunction)}, for a poll of a Kafka topic Eventide
   * reads: {@code eventOffset} and {@code unreadableOffset} say where event {@code i} and
   * unreadable value {@code i} were read from. In cluster mode they travel with the events through
   * the ingest log, so that a poll logged twice is applied once; one process applies a poll read
   * again like any batch (event ids de-duplicate it).
   */
  default CompletableFuture<IngestResult> ingestPolled(
      EventTexts events,
      List<String> unreadable,
      IntFunction<String> defaultSource,
      IntFunction<SourceOffset> eventOffset,
      IntFunction<SourceOffset> unreadableOffset) {
    return ingest(events, unreadable, defaultSource);
  }

  /**
   * A batch of a post. With {@code strict}, a batch in which reading finds an invalid event is
   * refused: {@link UnreadableBatchException} is thrown and nothing of it is applied (or logged).
   *
   * @param traceparent the post's span as a W3C {@code traceparent} when it is traced and sampled,
   *     else null: the span of the batch's commit is its child (docs/operations.md#tracing)
   */
  CompletableFuture<IngestResult> post(EventTexts events, boolean strict, String traceparent);

  /**
   * Reads a batch without taking it: refuses it with {@link UnreadableBatchException} when an event
   * cannot be read. For a strict post to a stream, whose body every reader must be able to read
   * before any takes it.
   */
  void checkReadable(EventTexts events);

  /**
   * Like {@link #post}, answered once the events are applied ({@code ?wait=applied}), with what
   * became of each. One process answers only then anyway; in cluster mode this waits for the owners
   * of the partitions, for at most {@code eventide.cluster.apply-timeout}.
   */
  default CompletableFuture<Applied> postApplied(
      EventTexts events, boolean strict, String traceparent) {
    return post(events, strict, traceparent).thenApply(r -> new Applied(r, true));
  }

  /**
   * What a waiting request learns.
   *
   * @param counts what became of each event; when not {@code complete}, what was logged
   * @param complete whether every event was applied within the wait
   */
  record Applied(IngestResult counts, boolean complete) {
    public Applied plus(Applied o) {
      return new Applied(counts.plus(o.counts), complete && o.complete);
    }

    /** The answer for a batch whose first event is event {@code first} of its post. */
    public Applied at(int first) {
      return new Applied(counts.at(first), complete);
    }
  }

  /**
   * Takes an explicit watermark for a source, or for every source when {@code source} is null.
   *
   * @param traceparent the post's span, as for {@link #post}
   * @return false when it would have gone backwards and was ignored (known only where it is applied
   *     at once; a logged watermark answers true)
   */
  CompletableFuture<Boolean> postWatermark(String source, long value, String traceparent);

  CompletableFuture<WatermarkView> watermark();
}
