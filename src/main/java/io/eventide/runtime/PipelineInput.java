package io.eventide.runtime;

import io.eventide.core.IngestResult;
import io.eventide.pipeline.PipelineDefinition;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;

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
      List<JsonNode> events, List<String> unreadable, IntFunction<String> defaultSource);

  default CompletableFuture<IngestResult> ingest(List<JsonNode> events) {
    return ingest(events, List.of(), i -> null);
  }

  /**
   * Takes an explicit watermark for a source, or for every source when {@code source} is null.
   *
   * @return false when it would have gone backwards and was ignored (known only where it is applied
   *     at once; a logged watermark answers true)
   */
  CompletableFuture<Boolean> postWatermark(String source, long value);

  CompletableFuture<WatermarkView> watermark();
}
