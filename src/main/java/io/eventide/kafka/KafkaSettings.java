package io.eventide.kafka;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
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
 * @param outboxCapacity records (panes and dead letters) kept in memory while Kafka is unreachable,
 *     on top of what the producer's own buffer ({@code buffer.memory}) holds; beyond it new records
 *     are dropped and counted
 * @param retryBackoff how long the sender waits before offering a refused record again, at first:
 *     the wait doubles with every refusal of the same topic; also the source's retry interval
 * @param maxRetryBackoff the longest wait between two tries of a refused topic, and the interval at
 *     which a parked topic is tried again
 * @param parkAfter how long a topic may keep being refused, while other topics are delivered,
 *     before it is parked: its records dropped and counted, so that it cannot fill the outbox
 * @param healthTimeout how long the health check waits for the cluster to answer
 * @param namespace the prefix of every pipeline's Kafka names: pipeline {@code p} may name topics
 *     and groups {@code <namespace>p.<part>} (no dot in the part) and no others, unless granted
 * @param grants topics and groups outside its namespace that a pipeline may name, set by the
 *     operator, since a pipeline's admin must not reach what the operator did not hand out
 * @param streams the streams fed from a Kafka topic, set by the operator: a stream's source feeds
 *     every pipeline that reads the stream, whose admins may be many, so no one of them may choose
 *     it
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
    @DefaultValue List<@Valid StreamSource> streams) {

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
