package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/** Ingestion requests in flight are capped: past the cap the answer is 503 with Retry-After. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "eventide.ingest.max-in-flight=2")
class IngestBackpressureTest {
  private static final String LINE =
      "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}\n";

  @LocalServerPort int port;

  @Test
  void anIngestionRequestPastTheCapIsRefusedWith503AndRetryAfterUntilOneEnds() {
    HttpClient unpooled = HttpClient.create(ConnectionProvider.newConnection());
    LiveApi api = LiveApi.over(port, unpooled);
    api.define(
        "busy",
        "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}");
    WebClient web =
        WebClient.builder()
            .baseUrl("http://localhost:" + port)
            .clientConnector(new ReactorClientHttpConnector(unpooled))
            .build();
    // Streamed NDJSON bodies that never end: each holds its request in flight.
    List<Disposable> held = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      held.add(
          web.post()
              .uri("/pipelines/busy/events")
              .contentType(LiveApi.NDJSON)
              .body(
                  BodyInserters.fromPublisher(
                      Flux.concat(Flux.just(LINE), Flux.never()), String.class))
              .retrieve()
              .toBodilessEntity()
              .subscribe());
    }
    try {
      Awaitility.await()
          .atMost(LiveApi.TIMEOUT)
          .untilAsserted(
              () -> {
                LiveApi.Reply refused =
                    api.postEvents("busy", MediaType.APPLICATION_JSON, LINE).expectProblem(503);
                assertThat(refused.headers().getFirst("Retry-After")).isEqualTo("1");
                assertThat(refused.body().get("detail").asString())
                    .contains("eventide.ingest.max-in-flight");
              });
      api.send(
              org.springframework.http.HttpMethod.POST,
              "/pipelines/busy/watermark",
              MediaType.APPLICATION_JSON,
              "{\"watermark\": 0}")
          .expectProblem(503);
    } finally {
      held.forEach(Disposable::dispose);
    }
    // A held request that ends frees its permit.
    Awaitility.await()
        .atMost(LiveApi.TIMEOUT)
        .untilAsserted(() -> api.postEvents("busy", MediaType.APPLICATION_JSON, LINE).expect(202));
  }
}
