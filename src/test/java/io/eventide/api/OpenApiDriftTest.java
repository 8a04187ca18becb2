package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.eventide.deploy.ProjectFiles;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The top-level openapi.yaml must say what springdoc generates from the controllers. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class OpenApiDriftTest {
  @Autowired WebTestClient client;

  private JsonNode generated() {
    String body =
        client
            .get()
            .uri("/v3/api-docs")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    return JsonMapper.shared().readTree(body);
  }

  private static JsonNode contract() {
    return JsonMapper.shared().valueToTree(ProjectFiles.yamlMap("openapi.yaml"));
  }

  @Test
  void openapiYamlMatchesTheGeneratedDocument() {
    List<String> differences =
        OpenApiTrees.differences(
            OpenApiTrees.normalise(contract()), OpenApiTrees.normalise(generated()));
    if (!differences.isEmpty()) {
      fail(
          "openapi.yaml and /v3/api-docs differ; update openapi.yaml or the controllers'"
              + " annotations:\n"
              + String.join("\n", differences));
    }
  }

  @Test
  void everyReferenceOfTheGeneratedDocumentResolves() {
    Set<String> unresolved = new TreeSet<>(OpenApiTrees.unresolvedReferences(generated()));
    if (!unresolved.isEmpty()) {
      fail(
          "$refs of /v3/api-docs with no target in openapi.yaml's components:\n"
              + String.join("\n", unresolved));
    }
  }

  @Test
  void swaggerUiIsServed() {
    String location =
        client
            .get()
            .uri("/swagger-ui.html")
            .exchange()
            .expectStatus()
            .is3xxRedirection()
            .returnResult(Void.class)
            .getResponseHeaders()
            .getLocation()
            .getPath();
    assertThat(location).endsWith("/swagger-ui/index.html");
    client
        .get()
        .uri(location)
        .exchange()
        .expectStatus()
        .isOk()
        .expectHeader()
        .contentTypeCompatibleWith(MediaType.TEXT_HTML);
  }
}
