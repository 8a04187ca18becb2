package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.engine.ProcessingClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.StatusAssertions;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Readiness with eventide.health.watermark-stall set, on a wall clock the test moves. */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "eventide.health.watermark-stall=1m")
@AutoConfigureWebTestClient(timeout = "PT30S")
class WatermarkStallReadinessTest {
  private static final long START = 1_700_000_000_000L;
  private static final AtomicLong NOW = new AtomicLong(START);

  @TestConfiguration
  static class MovableClock {
    @Bean
    @Primary
    ProcessingClock movableClock() {
      return NOW::get;
    }
  }

  @Autowired WebTestClient client;

  private void send(long timestamp) {
    client
        .post()
        .uri("/pipelines/stalling/events")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"key\": \"k\", \"timestamp\": " + timestamp + "}")
        .exchange()
        .expectStatus()
        .isAccepted();
  }

  private StatusAssertions define(String query) {
    return client
        .put()
        .uri("/pipelines/stalling" + query)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}")
        .exchange()
        .expectStatus();
  }

  private static void advance(Duration d) {
    NOW.addAndGet(d.toMillis());
  }

  private JsonNode readiness(int status) {
    String body =
        client
            .get()
            .uri("/actuator/health/readiness")
            .exchange()
            .expectStatus()
            .isEqualTo(status)
            .expectBody(String.class)
            .returnResult()
            .getResponseBody();
    return JsonMapper.shared().readTree(body);
  }

  @Test
  void downWhileEventsArriveAndTheWatermarkStandsStill() {
    define("").isCreated();
    long stuck = START - 10_000;
    send(stuck);
    assertThat(readiness(200).path("status").asString()).isEqualTo("UP");

    // Events keep coming, all at the same time: the watermark has not moved for two minutes.
    advance(Duration.ofMinutes(2));
    send(stuck);
    JsonNode down = readiness(503);
    assertThat(down.path("status").asString()).isEqualTo("DOWN");
    assertThat(down.at("/components/pipelines/status").asString()).isEqualTo("DOWN");
    assertThat(down.at("/components/pipelines/details/stalled/stalling/inputWatermark").asString())
        .isEqualTo("2023-11-14T22:13:10.000Z");

    // Nothing arrives for two minutes: idle, not stalled.
    advance(Duration.ofMinutes(2));
    assertThat(readiness(200).path("status").asString()).isEqualTo("UP");

    // Events again, still at the old time, then one that moves the watermark.
    send(stuck);
    assertThat(readiness(503).path("status").asString()).isEqualTo("DOWN");
    send(NOW.get());
    assertThat(readiness(200).path("status").asString()).isEqualTo("UP");

    // A reset starts the watermark afresh, behind where it was: that is no stall either.
    advance(Duration.ofMinutes(2));
    define("?reset=true").isOk();
    send(stuck);
    assertThat(readiness(200).path("status").asString()).isEqualTo("UP");
  }
}
