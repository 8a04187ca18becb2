package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import io.eventide.deploy.ProjectFiles;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;

/** What /actuator/prometheus shows after a known ingestion. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "PT30S")
class MetricsTest {
  private static final String PIPELINE = "metrics-known";
  private static final Map<String, String> TAG = Map.of("pipeline", PIPELINE);

  @Autowired WebTestClient client;
  @Autowired PipelineGauges gauges;
  @LocalServerPort int port;

  private void post(String path, MediaType type, String body) {
    client
        .post()
        .uri("/pipelines/{name}/" + path, PIPELINE)
        .contentType(type)
        .bodyValue(body)
        .exchange()
        .expectStatus()
        .is2xxSuccessful();
  }

  private PrometheusScrape scrape() {
    return PrometheusScrape.parse(PrometheusScrape.text(client));
  }

  private static Map<String, String> tag(String name, String value) {
    return Map.of("pipeline", PIPELINE, name, value);
  }

  @Test
  void countsEveryOutcomeByPipelineThenForgetsADeletedPipeline() {
    client
        .put()
        .uri("/pipelines/{name}", PIPELINE)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            """
            {"window": {"type": "fixed", "size": "1m"},
             "trigger": {"type": "afterWatermark", "early": {"type": "afterCount", "count": 2}},
             "aggregate": {"type": "sum"}}
            """)
        .exchange()
        .expectStatus()
        .isCreated();
    // Two accepted (an EARLY pane), a duplicate id, one too far in the future, one without a key.
    post(
        "events",
        MediaType.APPLICATION_JSON,
        """
        [{"key": "a", "timestamp": 1000, "value": 1},
         {"key": "a", "timestamp": 2000, "value": 2, "id": "x"},
         {"key": "a", "timestamp": 2000, "value": 2, "id": "x"},
         {"key": "a", "timestamp": 99999999999999, "value": 1},
         {"timestamp": 1000, "value": 1}]
        """);
    // The ON_TIME pane; the window is gone afterwards (no allowed lateness).
    post("watermark", MediaType.APPLICATION_JSON, "{\"watermark\": 120000}");
    // One expired event, and an NDJSON line that is not JSON.
    post(
        "events",
        MediaType.parseMediaType("application/x-ndjson"),
        "{\"key\": \"a\", \"timestamp\": 3000, \"value\": 1}\nnot json\n");
    gauges.refresh();

    PrometheusScrape s = scrape();
    assertThat(s.value("eventide_events_ingested_total", TAG)).isEqualTo(2);
    assertThat(s.value("eventide_events_late_total", TAG)).isZero();
    assertThat(s.value("eventide_events_duplicates_total", TAG)).isEqualTo(1);
    assertThat(s.value("eventide_events_dropped_total", tag("reason", "expired"))).isEqualTo(1);
    assertThat(s.value("eventide_events_dropped_total", tag("reason", "closed"))).isZero();
    assertThat(s.value("eventide_events_dropped_total", tag("reason", "future"))).isEqualTo(1);
    assertThat(s.value("eventide_events_dropped_total", tag("reason", "invalid"))).isEqualTo(2);
    assertThat(s.value("eventide_panes_emitted_total", tag("timing", "EARLY"))).isEqualTo(1);
    assertThat(s.value("eventide_panes_emitted_total", tag("timing", "ON_TIME"))).isEqualTo(1);
    assertThat(s.value("eventide_panes_emitted_total", tag("timing", "LATE"))).isZero();
    assertThat(s.value("eventide_watermark_input_seconds", TAG)).isEqualTo(120);
    assertThat(s.value("eventide_watermark_lag_seconds", TAG))
        .isCloseTo(System.currentTimeMillis() / 1000.0 - 120, offset(60.0));
    // Open windows are counted on the clock's beat, which may not have come since the watermark.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> scrape().value("eventide_windows_open", TAG) == 0);
    assertThat(s.value("eventide_sse_subscribers", TAG)).isZero();
    assertThat(s.value("eventide_ingest_batch_seconds_count", TAG)).isEqualTo(2);
    assertThat(s.value("eventide_state_commit_seconds_count", TAG)).isPositive();
    assertThat(s.value("eventide_state_commit_failures_total", TAG)).isZero();
    assertThat(s.find("eventide_ingest_batch_seconds_bucket", TAG))
        .hasSizeGreaterThan(10)
        .anyMatch(b -> b.labels().get("le").equals("+Inf") && b.value() == 2);

    client.delete().uri("/pipelines/{name}", PIPELINE).exchange().expectStatus().isNoContent();
    gauges.refresh();
    assertThat(scrape().withLabel("pipeline", PIPELINE)).isEmpty();
  }

  @Test
  void countsLiveSubscribers() {
    String name = "metrics-sse";
    client
        .put()
        .uri("/pipelines/{name}", name)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}")
        .exchange()
        .expectStatus()
        .isCreated();
    Disposable stream =
        WebClient.create("http://localhost:" + port)
            .get()
            .uri("/pipelines/{name}/panes", name)
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(String.class)
            .subscribe();
    try {
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () -> {
                gauges.refresh();
                assertThat(scrape().value("eventide_sse_subscribers", Map.of("pipeline", name)))
                    .isEqualTo(1);
              });
    } finally {
      stream.dispose();
    }
  }

  /** docs/operations.md explains every metric Eventide exports, by its Prometheus name. */
  @Test
  void docsExplainEveryMetric() {
    String name = "metrics-docs";
    client
        .put()
        .uri("/pipelines/{name}", name)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            "{\"window\": {\"type\": \"fixed\", \"size\": \"1m\"}, \"aggregate\": {\"type\": \"count\"}}")
        .exchange()
        .expectStatus()
        .isCreated();
    client
        .post()
        .uri("/pipelines/{name}/events", name)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"key\": \"a\", \"timestamp\": 1000}")
        .exchange()
        .expectStatus()
        .isAccepted();
    gauges.refresh();
    Set<String> metrics = new TreeSet<>();
    for (PrometheusScrape.Sample sample : scrape().withLabel("pipeline", name)) {
      metrics.add(sample.name().replaceAll("_(total|bucket|count|sum|max)$", ""));
    }
    assertThat(metrics).hasSizeGreaterThanOrEqualTo(10);
    String docs = ProjectFiles.read("docs/operations.md");
    assertThat(metrics).allMatch(m -> docs.contains("`" + m), "is explained in docs/operations.md");
    client.delete().uri("/pipelines/{name}", name).exchange().expectStatus().isNoContent();
  }
}
