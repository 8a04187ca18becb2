package io.eventide.state;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where pipeline state is kept.
 *
 * @param store {@code memory} (the embedded default: nothing survives a restart) or {@code redis}
 *     (the state of record: engine state, results, pane log and dead letters; see docs/redis.md)
 * @param keyPrefix the first part of every Redis key name
 * @param paneLogMaxLength panes kept per pipeline for resuming pane streams with Last-Event-ID
 *     (Redis trims approximately, to whole macro nodes)
 * @param retryAfter what a 503 answered while Redis is unavailable tells the client to wait
 * @param redis how commits to Redis are confirmed
 */
@Validated
@ConfigurationProperties("eventide.state")
public record StateProperties(
    @DefaultValue("memory") @NotNull Store store,
    @DefaultValue("eventide") @Pattern(regexp = "[A-Za-z0-9_.-]{1,64}") String keyPrefix,
    @DefaultValue("100000") @Min(1) int paneLogMaxLength,
    @DefaultValue("1s") Duration retryAfter,
    @DefaultValue @NotNull @Valid Redis redis) {

  /**
   * How a commit to Redis is confirmed.
   *
   * @param commitResolveTimeout how long, after a commit failed without Redis answering (a timeout,
   *     a dropped connection), the store keeps asking Redis whether the commit landed before it
   *     answers that the outcome is unknown
   * @param waitReplicas replicas that must have each commit (Redis {@code WAIT}) before it is
   *     acknowledged; 0 acknowledges what the primary has
   * @param waitTimeout how long a commit waits for those replicas; below the command timeout
   * @param markerCheckInterval how often a replica checks that Redis still holds the data it saw
   *     (the store's marker; docs/redis.md), besides before opening a pipeline's state
   */
  public record Redis(
      @DefaultValue("15s") @NotNull Duration commitResolveTimeout,
      @DefaultValue("0") @Min(0) int waitReplicas,
      @DefaultValue("1s") @NotNull Duration waitTimeout,
      @DefaultValue("1s") @NotNull Duration markerCheckInterval) {}

  /** The kinds of state store. */
  public enum Store {
    MEMORY,
    REDIS
  }
}
