package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Health groups, info, and what the actuator exposes over HTTP. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "PT30S")
class ActuatorTest {
  @Autowired WebTestClient client;

  private JsonNode get(String path, int status) {
    String body =
        client
            .get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isEqualTo(status)
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    return JsonMapper.shared().readTree(body);
  }

  @Test
  void livenessIsTheApplicationsOwnState() {
    JsonNode liveness = get("/actuator/health/liveness", 200);
    assertThat(liveness.path("status").asString()).isEqualTo("UP");
    assertThat(liveness.path("components").propertyNames()).containsExactly("livenessState");
  }

  @Test
  void readinessIncludesThePipelinesWatermarkCheck() {
    JsonNode readiness = get("/actuator/health/readiness", 200);
    assertThat(readiness.path("status").asString()).isEqualTo("UP");
    assertThat(readiness.path("components").propertyNames())
        .containsExactlyInAnyOrder("readinessState", "pipelines");
    assertThat(readiness.at("/components/pipelines/details/watermarkStall").asString())
        .isEqualTo("disabled");
  }

  @Test
  void infoShowsTheVersionAndTheCommit() {
    JsonNode info = get("/actuator/info", 200);
    assertThat(info.at("/build/version").asString()).isNotBlank();
    assertThat(info.at("/build/artifact").asString()).isEqualTo("eventide");
    assertThat(info.at("/git/commit/id").asString()).matches("[0-9a-f]{7,40}");
  }

  @Test
  void exposesOnlyHealthInfoMetricsAndPrometheus() {
    JsonNode links = get("/actuator", 200).path("_links");
    assertThat(links.propertyNames())
        .containsExactlyInAnyOrder(
            "self",
            "health",
            "health-path",
            "info",
            "metrics",
            "metrics-requiredMetricName",
            "prometheus");
    client.get().uri("/actuator/env").exchange().expectStatus().isNotFound();
    client.get().uri("/actuator/prometheus").exchange().expectStatus().isOk();
    assertThat(get("/actuator/metrics", 200).path("names").valueStream().map(JsonNode::asString))
        .contains("jvm.memory.used");
  }
}
