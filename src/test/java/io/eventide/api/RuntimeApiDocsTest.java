package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** The runtime endpoints in /v3/api-docs point at schemas that openapi.yaml defines. */
@LiveRuntimeTest
class RuntimeApiDocsTest {
  @LocalServerPort int port;

  @Test
  void everyRuntimeOperationIsDescribedAndEveryReferenceResolves() {
    JsonNode docs = LiveApi.on(port).get("/v3/api-docs");
    JsonNode paths = docs.get("paths");
    assertThat(paths.at("/~1pipelines~1{name}~1events/post/operationId").asString())
        .isEqualTo("postEvents");
    assertThat(paths.at("/~1pipelines~1{name}~1watermark/post/operationId").asString())
        .isEqualTo("postWatermark");
    assertThat(paths.at("/~1pipelines~1{name}~1watermark/get/operationId").asString())
        .isEqualTo("getWatermark");
    assertThat(paths.at("/~1pipelines~1{name}~1panes/get/operationId").asString())
        .isEqualTo("streamPanes");
    assertThat(paths.at("/~1pipelines~1{name}~1results/get/operationId").asString())
        .isEqualTo("getResults");
    assertThat(paths.at("/~1pipelines~1{name}~1windows/get/operationId").asString())
        .isEqualTo("explainWindows");
    assertThat(paths.at("/~1pipelines~1{name}~1dead-letters/get/operationId").asString())
        .isEqualTo("getDeadLetters");
    assertThat(paths.at("/~1pipelines~1{name}~1events/post/responses/413/$ref").asString())
        .isEqualTo("#/components/responses/PayloadTooLarge");
    assertThat(paths.at("/~1pipelines~1{name}/put/responses/409/$ref").asString())
        .isEqualTo("#/components/responses/Conflict");

    List<String> refs = new ArrayList<>();
    collectRefs(docs, refs);
    assertThat(refs).contains("#/components/schemas/IngestResult", "#/components/schemas/Windows");
    for (String ref : refs) {
      assertThat(docs.at(ref.substring(1)).isMissingNode()).as(ref).isFalse();
    }
  }

  private static void collectRefs(JsonNode node, List<String> refs) {
    if (node.has("$ref")) {
      refs.add(node.get("$ref").asString());
    }
    node.forEach(child -> collectRefs(child, refs));
  }
}
