package io.eventide.kafka;

import jakarta.validation.constraints.Min;
import java.time.Duration;
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
 * @param retryBackoff how long the sender waits before offering a refused record again
 * @param healthTimeout how long the health check waits for the cluster to answer
 */
@Validated
@ConfigurationProperties("eventide.kafka")
public record KafkaSettings(
    @DefaultValue("false") boolean enabled,
    @DefaultValue("100000") @Min(1) int outboxCapacity,
    @DefaultValue("1s") Duration retryBackoff,
    @DefaultValue("2s") Duration healthTimeout) {}
