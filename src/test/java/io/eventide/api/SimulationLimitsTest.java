package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The bounds of {@code /simulate} are settings, and a step that outgrows them names itself. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"eventide.simulation.max-outputs=2", "eventide.simulation.max-steps=3"})
@AutoConfigureWebTestClient
class SimulationLimitsTest {
  @Autowired WebTestClient client;

  @Test
  void aStepThatRendersMorePanesThanAllowedIsRefusedNamingTheStep() {
    post("""
            {"pipeline": {"window": {"type": "fixed", "size": "1m"},
                          "trigger": {"type": "repeatedly",
                                      "trigger": {"type": "afterCount", "count": 1}},
                          "aggregate": {"type": "count"}},
             "steps": [{"events": [{"key": "a", "timestamp": 1}]},
                       {"events": [{"key": "b", "timestamp": 1}, {"key": "c", "timestamp": 1}]}]}
            """)
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/steps/1")
        .jsonPath("$.errors[0].reason")
        .value(reason -> assertThat((String) reason).contains("more than 2 panes"));
  }

  @Test
  void moreStepsThanAllowedAreRefused() {
    post("""
            {"pipeline": {"window": {"type": "fixed", "size": "1m"},
                          "aggregate": {"type": "count"}},
             "steps": [{"watermark": 1}, {"watermark": 2}, {"watermark": 3}, {"watermark": 4}]}
            """)
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/steps");
  }

  private WebTestClient.ResponseSpec post(String body) {
    return client
        .post()
        .uri("/simulate")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(body)
        .exchange();
  }
}
