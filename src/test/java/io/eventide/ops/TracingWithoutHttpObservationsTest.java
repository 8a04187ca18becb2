package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.ops.OtlpReceiver.ReceivedSpan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * With Spring's observation of HTTP requests turned off there is no span of the request to be the
 * ingest span's parent (docs/operations.md#tracing): the ingest span continues the producer's span
 * itself, and the commit's span is still its child.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "management.observations.enable.http.server.requests=false")
@AutoConfigureWebTestClient(timeout = "PT30S")
@DirtiesContext
class TracingWithoutHttpObservationsTest {
  private static final OtlpReceiver RECEIVER = OtlpReceiver.start();

  @Autowired WebTestClient client;

  @DynamicPropertySource
  static void tracing(DynamicPropertyRegistry registry) {
    RECEIVER.register(registry);
  }

  @AfterAll
  static void stopReceiver() {
    RECEIVER.close();
  }

  @Test
  void theIngestSpanContinuesTheProducersSpan() {
    client
        .put()
        .uri("/pipelines/unobserved")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}")
        .exchange()
        .expectStatus()
        .is2xxSuccessful();
    String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    client
        .post()
        .uri("/pipelines/unobserved/events")
        .header("traceparent", "00-" + trace + "-00f067aa0ba902b7-01")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"key\": \"a\", \"timestamp\": 0, \"value\": 1}")
        .exchange()
        .expectStatus()
        .isEqualTo(HttpStatus.ACCEPTED);

    ReceivedSpan ingest = RECEIVER.await(trace, OtlpReceiver.named("eventide.ingest"));
    assertThat(ingest.parentId()).isEqualTo("00f067aa0ba902b7");
    assertThat(RECEIVER.await(trace, OtlpReceiver.named("eventide.commit")).parentId())
        .isEqualTo(ingest.spanId());
  }
}
