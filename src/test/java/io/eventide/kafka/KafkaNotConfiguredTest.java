package io.eventide.kafka;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The default profile: no Kafka, and pipelines that need it are refused with the reason. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "PT30S")
class KafkaNotConfiguredTest {
  @Autowired WebTestClient client;

  @Test
  void pipelinesWithAKafkaSinkOrSourceAreRefused() {
    client
        .put()
        .uri("/pipelines/needs-kafka")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            """
            {"window": {"type": "fixed", "size": "1m"}, "aggregate": {"type": "sum"},
             "sinks": {"kafka": {}}, "source": {"kafka": {"topic": "in"}}}
            """)
        .exchange()
        .expectStatus()
        .isBadRequest()
        .expectBody()
        .jsonPath("$.errors[0].path")
        .isEqualTo("/sinks/kafka")
        .jsonPath("$.errors[0].reason")
        .value(
            r ->
                org.assertj.core.api.Assertions.assertThat((String) r)
                    .contains("eventide.kafka.enabled"))
        .jsonPath("$.errors[1].path")
        .isEqualTo("/source/kafka");
    client.get().uri("/pipelines/needs-kafka").exchange().expectStatus().isNotFound();
  }
}
