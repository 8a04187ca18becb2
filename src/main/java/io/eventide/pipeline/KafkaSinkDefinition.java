package io.eventide.pipeline;

/**
 * Where a pipeline's panes go in Kafka.
 *
 * @param topic the pane topic; {@code eventide.panes.<pipeline>} by default
 * @param mode how consumers read the topic
 */
public record KafkaSinkDefinition(String topic, KafkaSinkMode mode) {
  public static String defaultTopic(String pipeline) {
    return "eventide.panes." + pipeline;
  }
}
