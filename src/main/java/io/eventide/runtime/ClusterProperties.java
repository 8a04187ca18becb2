package io.eventide.runtime;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Cluster mode (docs/scaling.md): every replica takes requests, each pipeline's events are logged
 * to a Kafka topic, and each partition of it is a shard owned by one replica at a time, with its
 * state and consumed offset committed together in Redis.
 *
 * @param enabled whether this process runs in cluster mode; it needs the Redis store and Kafka
 * @param partitions the partition count of a pipeline's ingest topic when Eventide creates it; an
 *     existing topic keeps its count (never add partitions to one: keys would move)
 * @param replicationFactor the ingest topics' replication factor when Eventide creates them; -1
 *     takes the broker's default
 * @param group the consumer group of the deployment: every replica of one deployment must name the
 *     same, and no other deployment on the Kafka cluster may
 * @param maxPollRecords the most records one poll takes, and so the most one commit applies (a
 *     record is an event, or a request's events for a partition, at most 512 KB of them)
 * @param pollTimeout how long a poll waits for records
 * @param sessionTimeout how long the group waits for a silent replica before moving its partitions
 * @param appendTimeout how long an append waits for the log's acknowledgement before the request is
 *     answered 503 (what it logged may still be applied: resend with event ids)
 * @param applyTimeout how long a request with {@code ?wait=applied} waits for the partitions'
 *     owners to apply its events before it is answered with what was logged and {@code "applied":
 *     false}
 * @param subscriptionRefresh how often a replica reads the registry for pipelines defined,
 *     redefined or deleted elsewhere
 * @param batchEvents whether a request's plain events travel to each partition as one record, which
 *     replicas before 2026-12-08 cannot read: off for the first round of a rolling upgrade from one
 *     of those (docs/scaling.md#upgrading)
 */
@Validated
@ConfigurationProperties("eventide.cluster")
public record ClusterProperties(
    @DefaultValue("false") boolean enabled,
    @DefaultValue("12") @Min(1) @Max(10_000) int partitions,
    @DefaultValue("-1") @Min(-1) @Max(32_767) int replicationFactor,
    @DefaultValue("eventide._cluster")
        @Pattern(regexp = "[a-zA-Z0-9._-]{1,249}", message = "must be a Kafka group id")
        String group,
    @DefaultValue("5000") @Min(1) int maxPollRecords,
    @DefaultValue("100ms") @NotNull Duration pollTimeout,
    @DefaultValue("10s") @NotNull Duration sessionTimeout,
    @DefaultValue("30s") @NotNull Duration appendTimeout,
    @DefaultValue("30s") @NotNull @DurationMin(millis = 1) @DurationMax(minutes = 10)
        Duration applyTimeout,
    @DefaultValue("1s") @NotNull Duration subscriptionRefresh,
    @DefaultValue("true") boolean batchEvents) {}
