package io.eventide.sink;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Limits of the in-process outputs.
 *
 * @param ssePageSize pane log entries, and windows of a snapshot, that a pane stream reads at once:
 *     what one subscriber holds at most
 * @param ssePoll how often a pane stream that has read everything looks at the log for entries
 *     nothing announced: a safety net, since commits of this process and (with Redis state) the
 *     pane log watch wake the streams
 * @param sseHeartbeat how often an idle pane stream sends a comment to keep proxies from closing it
 * @param resultsPerPipeline windows whose latest pane is kept per pipeline
 * @param deadLettersPerPipeline dead letters kept per pipeline
 * @param sseMaxPerPipeline live pane streams open at once per pipeline (429 beyond)
 * @param sseMaxPerCredential live pane streams open at once per credential when security is on (429
 *     beyond)
 * @param statusInterval how often the status stream ({@code GET /pipelines/status} as SSE) sends
 * @param sseIdleTimeout how long a pane stream may go without a pane before it is closed; 0 never
 */
@Validated
@ConfigurationProperties("eventide.outputs")
public record OutputProperties(
    @DefaultValue("1000") @Min(1) @Max(10000) int ssePageSize,
    @DefaultValue("30s") Duration ssePoll,
    @DefaultValue("15s") Duration sseHeartbeat,
    @DefaultValue("100000") @Min(1) int resultsPerPipeline,
    @DefaultValue("1000") @Min(1) int deadLettersPerPipeline,
    @DefaultValue("100") @Min(1) int sseMaxPerPipeline,
    @DefaultValue("10") @Min(1) int sseMaxPerCredential,
    @DefaultValue("1s") Duration statusInterval,
    @DefaultValue("30m") Duration sseIdleTimeout) {}
