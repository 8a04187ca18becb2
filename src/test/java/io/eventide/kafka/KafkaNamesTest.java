package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineLimits;
import io.eventide.definition.Revision;
import io.eventide.definition.json.PipelineParser;
import io.eventide.definition.kafka.KafkaNamespace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import tools.jackson.databind.JsonNode;

/**
 * Over HTTP, a pipeline's admin names only Kafka topics and groups of the pipeline's own namespace,
 * or those the operator granted it (KafkaIntegrationTest grants {@code granted} some): never
 * another pipeline's group, pane topic or dead-letter topic.
 */
class KafkaNamesTest extends KafkaIntegrationTest {
  private static final String SUM =
      "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"sum\"}, ";

  private record Answer(int status, MediaType type, JsonNode body) {
    List<String> paths() {
      List<String> paths = new ArrayList<>();
      body.path("errors").forEach(e -> paths.add(e.path("path").stringValue()));
      return paths;
    }
  }

  private Answer put(String name, String kafka) {
    EntityExchangeResult<byte[]> result =
        client
            .put()
            .uri("/pipelines/{name}", name)
            .contentType(MediaType.APPLICATION_JSON)
            .bodyValue(SUM + kafka + "}")
            .exchange()
            .expectBody()
            .returnResult();
    return new Answer(
        result.getStatus().value(),
        result.getResponseHeaders().getContentType(),
        JSON.readTree(result.getResponseBody()));
  }

  private static void assertRefused(Answer answer, String... paths) {
    assertThat(answer.status()).as("%s", answer.body()).isEqualTo(400);
    assertThat(MediaType.APPLICATION_PROBLEM_JSON.isCompatibleWith(answer.type())).isTrue();
    assertThat(answer.paths()).containsExactlyInAnyOrder(paths);
  }

  @Test
  void anotherPipelinesGroupAndTopicsAreRefusedNamingEachField() {
    Answer thief =
        put(
            "thief",
            """
            "sinks": {"kafka": {"topic": "eventide.victim.dead-letters"}},
            "source": {"kafka": {"topic": "eventide.victim.panes", "group": "eventide.victim.source"}}
            """);
    assertRefused(thief, "/sinks/kafka/topic", "/source/kafka/topic", "/source/kafka/group");
    assertThat(thief.body().at("/errors/0/reason").stringValue())
        .contains("eventide.thief.", "eventide.kafka.grants", "eventide.victim.dead-letters");
    client.get().uri("/pipelines/thief").exchange().expectStatus().isNotFound();

    // The names every pipeline had before namespaces, and the group of a pipeline named "victim".
    assertRefused(
        put(
            "thief",
            """
            "sinks": {"kafka": {"topic": "eventide.dead-letters.victim"}},
            "source": {"kafka": {"topic": "eventide.panes.victim", "group": "eventide.victim"}}
            """),
        "/sinks/kafka/topic",
        "/source/kafka/topic",
        "/source/kafka/group");
  }

  @Test
  void aPipelineOwnsNothingOfAPipelineWhoseNameExtendsItsOwn() {
    assertRefused(
        put("a", "\"sinks\": {\"kafka\": {\"topic\": \"eventide.a.b.panes\"}}"),
        "/sinks/kafka/topic");
    assertRefused(
        put("a", "\"sinks\": {\"kafka\": {\"topic\": \"eventide.a.dead-letters\"}}"),
        "/sinks/kafka/topic");
  }

  @Test
  void aStoredDefinitionThatBreaksTheRulesSendsNoPanes() throws Exception {
    // As a definition stored before the rules were would come back: past the check, in the store.
    PipelineDefinition legacy =
        PipelineParser.parseNamed(
            JSON.readTree(SUM + "\"sinks\": {\"kafka\": {\"topic\": \"eventide.panes.legacy\"}}}"),
            "legacy",
            KafkaNamespace.DEFAULT,
            PipelineLimits.DEFAULT);
    registry.replace(legacy.withRevision(Revision.UNSTORED.next(true)), null).block();
    define("lawful", SUM + "\"sinks\": {\"kafka\": {}}}");
    for (String pipeline : List.of("legacy", "lawful")) {
      ingest(pipeline, event("k", "12:00:30", 1, null));
      drain(pipeline);
    }
    // One sender sends in the order records were offered, so legacy's pane would be there first.
    assertThat(read("eventide.lawful.panes", 1)).hasSize(1);
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
      assertThat(admin.listTopics().names().get()).doesNotContain("eventide.panes.legacy");
    }
  }

  @Test
  void aGrantOpensANameToItsPipelineOnly() {
    assertRefused(
        put("other", "\"sinks\": {\"kafka\": {\"topic\": \"shop.click-counts\"}}"),
        "/sinks/kafka/topic");
    Answer granted = put("granted", "\"sinks\": {\"kafka\": {\"topic\": \"shop.click-counts\"}}");
    assertThat(granted.status()).as("%s", granted.body()).isEqualTo(201);
    assertThat(granted.body().at("/sinks/kafka/topic").stringValue())
        .isEqualTo("shop.click-counts");
    client.delete().uri("/pipelines/granted").exchange().expectStatus().isNoContent();
  }
}
