package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LatenessFeed;
import io.eventide.runtime.LiveApi;
import io.eventide.runtime.LiveRuntimeTest;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/** {@code GET /pipelines/{name}/lateness} over the memory store. */
@LiveRuntimeTest
class LatenessApiTest {
  @LocalServerPort int port;

  @Test
  void theRouteAnswersWhatTheEventsNeededPerSourceAndOverall() {
    LiveApi api = LiveApi.on(port);
    LatenessFeed.feed(api, "advised");
    LatenessFeed.assertFed(api.get("/pipelines/advised/lateness"));
    LatenessFeed.feedOneMore(api, "advised");
    assertThat(api.get("/pipelines/advised/lateness").get("events").asLong()).isEqualTo(5);
  }

  @Test
  void aPipelineWithNoEventsHasCountsOnly() {
    LiveApi api = LiveApi.on(port);
    api.define("unadvised", LatenessFeed.DEFINITION);
    JsonNode lateness = api.get("/pipelines/unadvised/lateness");
    assertThat(lateness.get("events").asLong()).isZero();
    assertThat(lateness.has("needMillis")).isFalse();
    assertThat(lateness.get("sources")).isEmpty();
  }

  @Test
  void anUnknownPipelineIsNotFound() {
    JsonNode problem =
        LiveApi.on(port)
            .send(HttpMethod.GET, "/pipelines/nowhere/lateness", null, null)
            .expectProblem(404)
            .body();
    assertThat(problem.get("detail").asString()).contains("nowhere");
  }
}
