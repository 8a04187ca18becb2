package io.eventide.kafka;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Eventide's use of Kafka. The connection itself (bootstrap servers, security, client overrides) is
 * Spring Boot's {@code spring.kafka.*}.
 *
 * @param enabled whether Eventide talks to Kafka at all; off, no client is created and pipelines
 *     that name a Kafka sink or source are refused
 * @param outboxCapacity dead letters kept in memory while Kafka is unreachable, on top of what the
 *     producer's own buffer ({@code buffer.memory}) holds; beyond it new ones are dropped and
 *     counted (panes wait in the pane log instead)
 * @param retryBackoff how long the outbox's sender, or a pane forwarder, waits before trying a
 *     refused topic again, at first: the wait doubles with every refusal; also the source's retry
 *     interval
 * @param maxRetryBackoff the longest wait between two tries of a refused topic, and the interval at
 *     which a parked dead-letter topic is tried again
 * @param parkAfter how long a dead-letter topic may keep being refused, while other topics are
 *     delivered, before it is parked: its records dropped and counted, so that it cannot fill the
 *     outbox
 * @param healthTimeout how long the health check waits for the cluster to answer
 * @param namespace the prefix of every pipeline's Kafka names: pipeline {@code p} may name topics
 *     and groups {@code <namespace>p.<part>} (no dot in the part) and no others, unless granted
 * @param grants topics and groups outside its namespace that a pipeline may name, set by the
 *     operator, since a pipeline's admin must not reach what the operator did not hand out
 * @param streams the streams fed from a Kafka topic, set by the operator: a stream's source feeds
 *     every pipeline that reads the stream, whose admins may be many, so no one of them may choose
 *     it
 * @param forwarder how pane sinks are fed from the pane log
 */
@Validated
@ConfigurationProperties("eventide.kafka")
public record KafkaSettings(
    @DefaultValue("false") boolean enabled,
    @DefaultValue("100000") @Min(1) int outboxCapacity,
    @DefaultValue("1s") Duration retryBackoff,
    @DefaultValue("1m") Duration maxRetryBackoff,
    @DefaultValue("1m") Duration parkAfter,
    @DefaultValue("2s") Duration healthTimeout,
    @DefaultValue("eventide.")
        @Pattern(
            regexp = "[a-zA-Z0-9._-]{0,100}",
            message = "must be up to 100 of a-z A-Z 0-9 . _ -")
        String namespace,
    @DefaultValue List<@Valid Grant> grants,
    @DefaultValue List<@Valid StreamSource> streams,
    @DefaultValue @NotNull @Valid Forwarder forwarder) {

  /**
   * Pane forwarders: one per pipeline with a Kafka sink, active on one replica at a time.
   *
   * @param leaseTime how long a replica's lease on a pipeline's forwarder lasts unless renewed: how
   *     long the panes of a pipeline whose forwarding replica died wait before another takes over
   * @param renewInterval how often the holder renews its leases, and the other replicas try to take
   *     free ones; shorter than the lease time, with room for a slow Redis answer
   * @param pageSize pane log entries a forwarder reads, sends and checkpoints at once
   * @param pollInterval how often a forwarder that has sent everything looks at the pane log for
   *     entries no commit of this process announced (another replica's)
   */
  public record Forwarder(
      @DefaultValue("10s") Duration leaseTime,
      @DefaultValue("3s") Duration renewInterval,
      @DefaultValue("1000") @Min(1) @Max(10000) int pageSize,
      @DefaultValue("1s") Duration pollInterval) {

    @AssertTrue(message = "renew-interval must be positive and shorter than lease-time")
    public boolean isRenewedWithinLease() {
      return !renewInterval.isNegative()
          && !renewInterval.isZero()
          && renewInterval.compareTo(leaseTime) < 0;
    }

    @AssertTrue(message = "poll-interval must be positive")
    public boolean isPolling() {
      return !pollInterval.isNegative() && !pollInterval.isZero();
    }
  }

  /**
   * @param pipeline the pipeline the grant is for, exactly as named
   * @param sourceTopics topics it may consume events from
   * @param sinkTopics topics it may send panes to
   * @param groups consumer groups it may consume in
   */
  public record Grant(
      @NotBlank String pipeline,
      @DefaultValue List<String> sourceTopics,
      @DefaultValue List<String> sinkTopics,
      @DefaultValue List<String> groups) {}

  /**
   * @param stream the stream whose readers get the topic's events
   * @param topic the topic, {@code <namespace>_stream.<stream>.in} by default; a name under the
   *     namespace must be in the stream's own ({@code <namespace>_stream.<stream>.<part>})
   * @param group the consumer group, {@code <namespace>_stream.<stream>.source} by default, under
   *     the same rule
   */
  public record StreamSource(
      @NotBlank
          @Pattern(
              regexp = "[A-Za-z0-9][A-Za-z0-9._-]{0,127}",
              message = "must be a stream name: [A-Za-z0-9][A-Za-z0-9._-]{0,127}")
          String stream,
      @Pattern(
              regexp = "[a-zA-Z0-9._-]{1,249}",
              message = "must be a Kafka topic name: 1 to 249 of a-z A-Z 0-9 . _ -")
          String topic,
      String group) {}
}
