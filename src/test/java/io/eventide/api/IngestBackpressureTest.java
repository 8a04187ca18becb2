package io.eventide.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eventide.runtime.LiveApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * Ingestion requests being applied are capped (503 with Retry-After past the cap), and a body still
 * arriving holds none of those permits, only one of its client's upload slots.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "eventide.ingest.max-in-flight=2")
class IngestBackpressureTest {
  private static final String LINE =
      "{\"key\":\"k\",\"timestamp\":\"2026-01-01T10:00:00Z\",\"value\":1}\n";

  @LocalServerPort int port;
  @Autowired IngestPermits permits;
  @Autowired ProblemHandler problems;

  @Test
  void pastTheCapABatchIsRefusedWith503AndRetryAfterUntilOneEnds() {
    List<Disposable> held = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      held.add(permits.admit(Mono.never()).subscribe());
    }
    assertThatThrownBy(() -> permits.admit(Mono.just(1)).block(Duration.ofSeconds(5)))
        .isInstanceOfSatisfying(
            IngestionBusyException.class,
            e -> {
              var answer = problems.busy(e);
              assertThat(answer.getStatusCode().value()).isEqualTo(503);
              assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("1");
              assertThat(answer.getBody().getDetail()).contains("eventide.ingest.max-in-flight");
            });
    held.remove(0).dispose();
    assertThat(permits.admit(Mono.just(1)).block(Duration.ofSeconds(5))).isEqualTo(1);
    held.forEach(Disposable::dispose);
  }

  @Test
  void bodiesThatNeverEndHoldNoPermitOthersNeed() {
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
    // More streamed NDJSON bodies that never end than the cap, each with a line read.
    List<Disposable> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
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
      for (int i = 0; i < 20; i++) {
        api.postEvents("busy", MediaType.APPLICATION_JSON, LINE).expect(202);
      }
      api.send(
              org.springframework.http.HttpMethod.POST,
              "/pipelines/busy/watermark",
              MediaType.APPLICATION_JSON,
              "{\"watermark\": 0}")
          .expect(200);
    } finally {
      held.forEach(Disposable::dispose);
    }
  }
}
