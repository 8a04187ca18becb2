package io.eventide.definition.kafka;

/**
 * Where a pipeline's panes go in Kafka.
 *
 * @param topic the pane topic; {@link KafkaNamespace#paneTopic} by default
 * @param mode how consumers read the topic
 */
public record KafkaSinkDefinition(String topic, KafkaSinkMode mode) {}
