package io.eventide.runtime;

import io.eventide.core.IngestBounds;
import io.eventide.core.read.JsonLimits;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Event ingestion over HTTP.
 *
 * @param maxBodySize the largest request body accepted, streamed NDJSON included (413 beyond)
 * @param ndjsonBatchEvents how many NDJSON lines make one batch, so that a large upload is applied
 *     in pieces and never held whole in memory
 * @param maxJsonDepth how deeply arrays and objects may nest in a request body (400 beyond)
 * @param maxNumberLength the most characters a JSON number may have (400 beyond)
 * @param maxStringLength the most characters a JSON string may have (400 beyond)
 * @param maxSources watermark sources a pipeline tracks at once; an event of one more is invalid, a
 *     watermark post for one more is 400
 * @param sourceExpiryIdleTimeouts how many of its pipeline's {@code idleTimeout} a source may stay
 *     silent before it is forgotten
 * @param idRetention how far past an event's time the watermark may go before its id is forgotten,
 *     for windows that stay open longer (global windows, long lateness)
 * @param maxIdsPerShard event ids a shard remembers at once; past it, those that would be forgotten
 *     soonest go first
 * @param maxInFlight ingestion requests being applied at once, over all pipelines and streams (503
 *     beyond): a request holds one from when its body is in (for streamed NDJSON, while a batch is
 *     applied) until it is committed
 * @param maxUploadsPerClient request bodies one client may have being read at once, on every route:
 *     a credential with security on, else an address (429 beyond), so that one client's slow or
 *     unfinished uploads refuse only that client
 * @param bodyReadTimeout how long a request body may take to arrive, from when the service starts
 *     reading it to its last byte (408 beyond, and nothing of what had not arrived is applied)
 * @param maxPipelinesPerStream pipelines that may read one stream, since one request to a stream is
 *     applied to each of them (a definition beyond is 400)
 * @param latenessSources watermark sources whose lateness needs ({@code GET
 *     /pipelines/{name}/lateness}) a pipeline keeps apart, each in a sketch of a few kilobytes;
 *     those of sources beyond are kept together
 * @param latenessWriteInterval how often at most a pipeline's lateness sketches are committed with
 *     its state: what a crash can lose of them, and how stale the route may answer
 * @param maxRejectedListed refused events the answer to a post lists at most, with their positions
 *     and reasons; it counts them all
 * @param readOnLoopLimit the largest batch of a pipeline's route read (parsed) on the Netty event
 *     loop that received it, when its pipeline evaluates no expression; larger batches, and those
 *     of pipelines with expressions or of streams, hop to a reading thread, so that no loop spends
 *     long on one request while its other connections wait. {@code 0B} reads every batch off the
 *     loop
 * @param maxOpenWindows windows one pipeline holds at once (closed ones until their allowed
 *     lateness has passed), split evenly over its shards or cluster partitions; an event that would
 *     open one more is dead-lettered {@code quota}, while windows already open still take events
 */
@Validated
@ConfigurationProperties("eventide.ingest")
public record IngestProperties(
    @DefaultValue("16MB") DataSize maxBodySize,
    @DefaultValue("10000") @Min(1) int ndjsonBatchEvents,
    @DefaultValue("64") @Min(1) int maxJsonDepth,
    @DefaultValue("100") @Min(1) int maxNumberLength,
    @DefaultValue("1000000") @Min(1) int maxStringLength,
    @DefaultValue("1000") @Min(1) int maxSources,
    @DefaultValue("60") @Min(1) int sourceExpiryIdleTimeouts,
    @DefaultValue("24h") Duration idRetention,
    @DefaultValue("1000000") @Min(1) int maxIdsPerShard,
    @DefaultValue("256") @Min(1) int maxInFlight,
    @DefaultValue("64") @Min(1) int maxUploadsPerClient,
    @DefaultValue("30s") @NotNull @DurationMin(millis = 1) Duration bodyReadTimeout,
    @DefaultValue("16") @Min(1) int maxPipelinesPerStream,
    @DefaultValue("16") @Min(1) int latenessSources,
    @DefaultValue("1s") Duration latenessWriteInterval,
    @DefaultValue("100") @Min(0) int maxRejectedListed,
    @DefaultValue("1000000") @Min(1) int maxOpenWindows,
    @DefaultValue("128KB") @NotNull DataSize readOnLoopLimit) {

  /** What the live runtime bounds per pipeline. */
  public IngestBounds bounds() {
    return new IngestBounds(
        maxSources,
        sourceExpiryIdleTimeouts,
        idRetention.toMillis(),
        maxIdsPerShard,
        json(),
        latenessSources,
        latenessWriteInterval.toMillis(),
        maxRejectedListed,
        maxOpenWindows);
  }

  /** What one JSON text (a body, a line, an event) may make the parser do. */
  public JsonLimits json() {
    return new JsonLimits(maxJsonDepth, maxNumberLength, maxStringLength);
  }
}
