package io.eventide.definition.kafka;

/**
 * A Kafka topic the pipeline consumes events from, besides HTTP.
 *
 * @param topic the topic whose records are events, in the same JSON as the HTTP body
 * @param group the consumer group that assigns the partitions; {@link KafkaNamespace#group} by
 *     default
 */
public record KafkaSourceDefinition(String topic, String group) {}
