package io.eventide.pipeline;

/**
 * A Kafka topic the pipeline consumes events from, besides HTTP.
 *
 * @param topic the topic whose records are events, in the same JSON as the HTTP body
 * @param group the consumer group that assigns the partitions; {@code eventide.<pipeline>} by
 *     default
 */
public record KafkaSourceDefinition(String topic, String group) {
  public static String defaultGroup(String pipeline) {
    return "eventide." + pipeline;
  }
}
