package io.eventide.definition.kafka;

/**
 * Where a pipeline's panes go in Kafka.
 *
 * @param topic the pane topic; {@link KafkaNamespace#paneTopic} by default
 * @param mode how consumers read the topic
 * @param finals whether a window that closes without a closing pane has its last pane sent again,
 *     marked final, so that consumers learn the figure is fixed
 */
public record KafkaSinkDefinition(String topic, KafkaSinkMode mode, boolean finals) {}
