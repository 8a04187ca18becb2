package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.PipelineJson;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.json.Violation;
import io.eventide.definition.kafka.KafkaNamespace;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class KafkaDefinitionTest {
  private static PipelineDefinition parse(String extra) {
    return parse(extra, KafkaNamespace.DEFAULT);
  }

  private static PipelineDefinition parse(String extra, KafkaNamespace namespace) {
    JsonNode body =
        JsonMapper.shared()
            .readTree(
                "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"},"
                    // A watermark that moves by itself: only the sink's warnings are left.
                    + " \"watermark\": {\"idleAdvance\": true},"
                    + " \"aggregate\": {\"type\": \"sum\"}, "
                    + extra
                    + "}");
    return PipelineParser.parseNamed(body, "clicks", namespace, PipelineLimits.DEFAULT);
  }

  @Test
  void defaultsAreFilledInAndWrittenBack() {
    PipelineDefinition d =
        parse(
            "\"accumulation\": \"accumulating\", \"sinks\": {\"kafka\": {}},"
                + " \"source\": {\"kafka\": {\"topic\": \"clicks-in\"}}");
    JsonNode json = PipelineJson.withWarnings(d);
    assertThat(json.at("/sinks/kafka/topic").stringValue()).isEqualTo("eventide.clicks.panes");
    assertThat(json.at("/sinks/kafka/mode").stringValue()).isEqualTo("changelog");
    assertThat(json.at("/source/kafka/topic").stringValue()).isEqualTo("clicks-in");
    assertThat(json.at("/source/kafka/group").stringValue()).isEqualTo("eventide.clicks.source");
    assertThat(json.get("warnings")).isEmpty();
  }

  @Test
  void defaultsFollowTheConfiguredNamespace() {
    PipelineDefinition d =
        parse(
            "\"sinks\": {\"kafka\": {}}, \"source\": {\"kafka\": {\"topic\": \"t\"}}",
            new KafkaNamespace("acme-"));
    assertThat(d.sinks().kafka().topic()).isEqualTo("acme-clicks.panes");
    assertThat(d.source().kafka().group()).isEqualTo("acme-clicks.source");
  }

  @Test
  void pipelinesWithoutKafkaDoNotMentionIt() {
    JsonNode json = PipelineJson.write(parse("\"accumulation\": \"discarding\""));
    assertThat(json.has("sinks")).isFalse();
    assertThat(json.has("source")).isFalse();
  }

  @Test
  void riskyPairingsAreAcceptedWithAWarning() {
    assertThat(
            parse(
                    "\"accumulation\": \"accumulating\","
                        + " \"sinks\": {\"kafka\": {\"mode\": \"append\"}}")
                .warnings())
        .singleElement()
        .asString()
        .contains("highest pane index per key and window");
    assertThat(parse("\"sinks\": {\"kafka\": {}}").warnings())
        .singleElement()
        .asString()
        .contains("use mode append");
    assertThat(
            parse(
                    "\"accumulation\": \"retracting\","
                        + " \"sinks\": {\"kafka\": {\"mode\": \"append\"}}")
                .warnings())
        .isEmpty();
  }

  @Test
  void everyViolationIsNamed() {
    assertThatThrownBy(
            () ->
                parse(
                    "\"sinks\": {\"kafka\": {\"topic\": \"no spaces\", \"mode\": \"upsert\"},"
                        + " \"redis\": {}},"
                        + " \"source\": {\"kafka\": {\"group\": \" \"}}"))
        .isInstanceOfSatisfying(
            InvalidInputException.class,
            e ->
                assertThat(e.violations())
                    .extracting(Violation::path)
                    .containsExactlyInAnyOrder(
                        "/sinks/kafka/topic",
                        "/sinks/kafka/mode",
                        "/sinks/redis",
                        "/source/kafka/topic",
                        "/source/kafka/group"));
  }
}
