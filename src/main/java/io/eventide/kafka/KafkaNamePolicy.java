package io.eventide.kafka;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.Violation;
import io.eventide.definition.json.Violations;
import io.eventide.definition.kafka.KafkaNamespace;
import io.eventide.definition.kafka.KafkaSinkDefinition;
import io.eventide.definition.kafka.KafkaSourceDefinition;
import io.eventide.runtime.PipelineLifecycleListener;
import java.util.List;
import java.util.function.Function;

/**
 * Which Kafka topics and groups a pipeline may name: those of its namespace and those the operator
 * granted it. Without it the admin of one pipeline could join another's consumer group and take its
 * partitions, read another's panes as events, or write into another's pane or dead-letter topic.
 */
final class KafkaNamePolicy implements PipelineLifecycleListener {
  private final KafkaNamespace namespace;
  private final List<KafkaSettings.Grant> grants;

  KafkaNamePolicy(KafkaNamespace namespace, List<KafkaSettings.Grant> grants) {
    this.namespace = namespace;
    this.grants = List.copyOf(grants);
  }

  @Override
  public void check(PipelineDefinition definition) {
    List<Violation> found = violations(definition);
    if (!found.isEmpty()) {
      throw new InvalidInputException(found);
    }
  }

  /** Everything the definition names that it may not, each at its field. */
  List<Violation> violations(PipelineDefinition definition) {
    String pipeline = definition.name();
    Violations violations = new Violations();
    KafkaSinkDefinition sink = definition.sinks().kafka();
    if (sink != null) {
      if (sink.topic().equals(namespace.deadLetterTopic(pipeline))) {
        violations.add(
            "/sinks/kafka/topic",
            "is the pipeline's dead-letter topic, which only Eventide writes");
      } else if (sink.topic().equals(namespace.eventTopic(pipeline))) {
        violations.add(
            "/sinks/kafka/topic",
            "is the pipeline's ingest log in cluster mode, which only Eventide writes");
      } else if (!allowed(pipeline, sink.topic(), KafkaSettings.Grant::sinkTopics)) {
        violations.add("/sinks/kafka/topic", outside(pipeline, "topic", sink.topic()));
      }
    }
    KafkaSourceDefinition source = definition.source().kafka();
    if (source != null) {
      if (source.topic().equals(namespace.eventTopic(pipeline))) {
        violations.add(
            "/source/kafka/topic",
            "is the pipeline's ingest log in cluster mode, which Eventide reads itself");
      } else if (!allowed(pipeline, source.topic(), KafkaSettings.Grant::sourceTopics)) {
        violations.add("/source/kafka/topic", outside(pipeline, "topic", source.topic()));
      }
      if (!allowed(pipeline, source.group(), KafkaSettings.Grant::groups)) {
        violations.add("/source/kafka/group", outside(pipeline, "group", source.group()));
      }
    }
    return violations.list();
  }

  private boolean allowed(
      String pipeline, String name, Function<KafkaSettings.Grant, List<String>> granted) {
    return namespace.owns(pipeline, name)
        || grants.stream()
            .anyMatch(g -> g.pipeline().equals(pipeline) && granted.apply(g).contains(name));
  }

  private String outside(String pipeline, String kind, String name) {
    return "must be in the pipeline's namespace, "
        + namespace.of(pipeline)
        + "<part> with no dot in <part>, or granted to the pipeline in eventide.kafka.grants (got "
        + kind
        + " '"
        + name
        + "')";
  }
}
