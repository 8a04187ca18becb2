package io.eventide.definition.json;

import io.eventide.definition.PipelineSinks;
import io.eventide.definition.PipelineSource;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.definition.kafka.KafkaSinkDefinition;
import io.eventide.definition.kafka.KafkaSinkMode;
import io.eventide.definition.kafka.KafkaSourceDefinition;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** Reads the {@code sinks} and {@code source} parts of a definition. */
final class KafkaDefinitionParser {
  /** Kafka's own rule for topic names ({@code Topic.validate}); "." and ".." are refused too. */
  private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  private final Violations violations;
  private final KafkaNamespace namespace;

  KafkaDefinitionParser(Violations violations, KafkaNamespace namespace) {
    this.violations = violations;
    this.namespace = namespace;
  }

  PipelineSinks sinks(JsonNode node, String path, String pipeline) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    JsonNode kafkaNode = f.get("kafka");
    KafkaSinkDefinition kafka =
        kafkaNode == null ? null : kafkaSink(kafkaNode, f.pathOf("kafka"), pipeline);
    f.rejectUnknown();
    return new PipelineSinks(kafka);
  }

  PipelineSource source(JsonNode node, String path, String pipeline) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    JsonNode kafkaNode = f.get("kafka");
    KafkaSourceDefinition kafka =
        kafkaNode == null ? null : kafkaSource(kafkaNode, f.pathOf("kafka"), pipeline);
    f.rejectUnknown();
    return new PipelineSource(kafka);
  }

  private KafkaSinkDefinition kafkaSink(JsonNode node, String path, String pipeline) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    String topic = topic(f, pipeline == null ? null : namespace.paneTopic(pipeline));
    KafkaSinkMode mode = f.choice("mode", KafkaSinkMode.class, KafkaSinkMode.CHANGELOG);
    boolean finals = f.bool("finals", false);
    f.rejectUnknown();
    return topic == null || mode == null ? null : new KafkaSinkDefinition(topic, mode, finals);
  }

  private KafkaSourceDefinition kafkaSource(JsonNode node, String path, String pipeline) {
    JsonFields f = JsonFields.of(node, path, violations);
    if (f == null) {
      return null;
    }
    String topic = f.require("topic") == null ? null : topic(f, null);
    String group = f.string("group", pipeline == null ? null : namespace.group(pipeline));
    if (group != null && group.isBlank()) {
      f.violation("group", "must not be blank");
      group = null;
    }
    f.rejectUnknown();
    return topic == null || group == null ? null : new KafkaSourceDefinition(topic, group);
  }

  private static String topic(JsonFields f, String fallback) {
    String topic = f.string("topic", fallback);
    if (topic != null && (!TOPIC.matcher(topic).matches() || List.of(".", "..").contains(topic))) {
      f.violation(
          "topic",
          "must be a Kafka topic name: 1 to 249 of a-z A-Z 0-9 . _ - (got '" + topic + "')");
      return null;
    }
    return topic;
  }
}
