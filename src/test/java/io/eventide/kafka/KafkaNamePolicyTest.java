package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.json.Violation;
import io.eventide.definition.kafka.KafkaNamespace;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The rule on its own: a namespace per pipeline, grants per pipeline and per use. */
class KafkaNamePolicyTest {
  private static final KafkaNamespace TEAM = new KafkaNamespace("team-a.");
  private static final KafkaNamePolicy POLICY =
      new KafkaNamePolicy(
          TEAM,
          List.of(
              new KafkaSettings.Grant(
                  "orders", List.of("shop.orders"), List.of("shop.counts"), List.of("shop-c"))));

  private static List<String> refused(String pipeline, String kafka) {
    PipelineDefinition definition =
        PipelineParser.parseNamed(
            JsonMapper.shared()
                .readTree(
                    "{\"window\": {\"type\": \"global\"}, \"aggregate\": {\"type\": \"count\"}, "
                        + kafka
                        + "}"),
            pipeline,
            TEAM,
            PipelineLimits.DEFAULT);
    return POLICY.violations(definition).stream().map(Violation::path).toList();
  }

  @Test
  void theDefaultsAreInTheNamespace() {
    assertThat(refused("orders", "\"sinks\": {\"kafka\": {}}")).isEmpty();
    assertThat(refused("orders", "\"source\": {\"kafka\": {\"topic\": \"team-a.orders.in\"}}"))
        .isEmpty();
  }

  @Test
  void grantsCountPerUse() {
    assertThat(
            refused(
                "orders",
                "\"sinks\": {\"kafka\": {\"topic\": \"shop.counts\"}},"
                    + " \"source\": {\"kafka\": {\"topic\": \"shop.orders\", \"group\": \"shop-c\"}}"))
        .isEmpty();
    // Granted to read is not granted to write, and the other way round.
    assertThat(
            refused(
                "orders",
                "\"sinks\": {\"kafka\": {\"topic\": \"shop.orders\"}},"
                    + " \"source\": {\"kafka\": {\"topic\": \"shop.counts\", \"group\": \"shop.orders\"}}"))
        .containsExactly("/sinks/kafka/topic", "/source/kafka/topic", "/source/kafka/group");
  }

  @Test
  void theNamespaceIsThePrefixPlusThePipelineAndOnePart() {
    assertThat(refused("orders", "\"sinks\": {\"kafka\": {\"topic\": \"eventide.orders.panes\"}}"))
        .containsExactly("/sinks/kafka/topic");
    assertThat(refused("orders", "\"sinks\": {\"kafka\": {\"topic\": \"team-a.orders.x.y\"}}"))
        .containsExactly("/sinks/kafka/topic");
    assertThat(refused("orders", "\"sinks\": {\"kafka\": {\"topic\": \"team-a.orders\"}}"))
        .containsExactly("/sinks/kafka/topic");
    assertThat(refused("a.b", "\"sinks\": {\"kafka\": {\"topic\": \"team-a.a.b.panes\"}}"))
        .isEmpty();
    assertThat(refused("a", "\"sinks\": {\"kafka\": {\"topic\": \"team-a.a.b.panes\"}}"))
        .containsExactly("/sinks/kafka/topic");
  }
}
