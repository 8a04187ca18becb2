package io.eventide.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaTestBroker;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;

/**
 * Eventide's meters follow Prometheus's conventions: Prometheus's own linter, {@code promtool check
 * metrics}, finds nothing about them in a scrape taken after real traffic (every outcome of an
 * event, panes of every timing, a pane stream, a Kafka pane sink), and every {@code eventide.*}
 * meter carries a description, its HELP.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "eventide.kafka.enabled=true",
      "logging.level.org.apache.kafka=warn",
      "logging.level.kafka=warn",
      "logging.level.org.springframework.kafka=warn"
    })
@AutoConfigureWebTestClient(timeout = "PT30S")
@ExtendWith(KafkaTestBroker.Stopper.class)
@DirtiesContext
class PrometheusConventionsTest {
  private static final String PIPELINE = "conventions";
  private static final List<String> PROMTOOL = List.of("/usr/bin/promtool", "promtool");

  @Autowired WebTestClient client;
  @Autowired PipelineGauges gauges;
  @Autowired MeterRegistry registry;
  @LocalServerPort int port;

  @DynamicPropertySource
  static void kafka(DynamicPropertyRegistry registry) {
    registry.add("spring.kafka.bootstrap-servers", () -> KafkaTestBroker.get().bootstrapServers());
  }

  @Test
  void promtoolFindsNothingAboutEventidesMetricsAfterTraffic() throws Exception {
    driveTraffic();
    String scrape = PrometheusScrape.text(client);
    // Every kind of Eventide meter is in the scrape that is checked: counters, gauges, timers
    // (histograms), the Kafka sink's and the outbox's.
    assertThat(scrape)
        .contains(
            "# TYPE eventide_events_late_total counter",
            "# TYPE eventide_watermark_lag_seconds gauge",
            "# TYPE eventide_ingest_batch_seconds histogram",
            "# TYPE eventide_sse_subscribers gauge",
            "# TYPE eventide_kafka_forwarder_forwarded_total counter",
            "# TYPE eventide_kafka_outbox_pending gauge");

    List<String> findings =
        promtool(scrape).stream().filter(line -> line.contains("eventide_")).toList();
    assertThat(findings).as("promtool check metrics on eventide_* series").isEmpty();
  }

  @Test
  void everyEventideMeterHasADescription() {
    driveTraffic();
    Set<String> names = new TreeSet<>();
    Set<String> undescribed = new TreeSet<>();
    for (Meter meter : registry.getMeters()) {
      String name = meter.getId().getName();
      if (name.startsWith(MeterNames.PREFIX)) {
        names.add(name);
        String description = meter.getId().getDescription();
        if (description == null || description.isBlank()) {
          undescribed.add(name);
        }
      }
    }
    assertThat(names)
        .contains(
            MeterNames.INGESTED.name(),
            MeterNames.DROPPED.name(),
            MeterNames.PANES.name(),
            MeterNames.BATCH.name(),
            MeterNames.COMMIT.name(),
            MeterNames.COMMIT_FAILURES.name(),
            MeterNames.INPUT_WATERMARK.name(),
            MeterNames.WATERMARK_LAG.name(),
            MeterNames.OPEN_WINDOWS.name(),
            MeterNames.SSE_SUBSCRIBERS.name(),
            "eventide.kafka.forwarder.lease",
            "eventide.kafka.outbox.pending");
    assertThat(undescribed).as("eventide.* meters without a description").isEmpty();
  }

  /** A pipeline with a Kafka pane sink, and events of every outcome, with a pane stream open. */
  private void driveTraffic() {
    client
        .put()
        .uri("/pipelines/{name}?reset=true", PIPELINE)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(
            """
            {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT1M",
             "trigger": {"type": "afterWatermark", "early": {"type": "afterCount", "count": 2},
                         "late": {"type": "afterCount", "count": 1}},
             "filter": "event.value < 100.0",
             "watermark": {"onFutureSkew": "clamp"},
             "aggregate": {"type": "sum"}, "sinks": {"kafka": {"mode": "append"}}}
            """)
        .exchange()
        .expectStatus()
        .is2xxSuccessful();
    Disposable stream =
        WebClient.create("http://localhost:" + port)
            .get()
            .uri("/pipelines/{name}/panes", PIPELINE)
            .accept(MediaType.TEXT_EVENT_STREAM)
            .retrieve()
            .bodyToFlux(String.class)
            .subscribe();
    try {
      // Accepted (an EARLY pane), a duplicate, a filtered one, one without a key.
      events(
          """
          [{"key": "a", "timestamp": 1000, "value": 1, "id": "x"},
           {"key": "a", "timestamp": 2000, "value": 2, "id": "x"},
           {"key": "a", "timestamp": 3000, "value": 2},
           {"key": "a", "timestamp": 4000, "value": 500},
           {"timestamp": 1000, "value": 1}]
          """);
      watermark(60_000); // the ON_TIME pane
      events("{\"key\": \"a\", \"timestamp\": 5000, \"value\": 3}"); // late: a LATE pane
      watermark(300_000);
      events("{\"key\": \"a\", \"timestamp\": 6000, \"value\": 3}"); // expired
      // Far in the future: clamped to its arrival time, which moves the watermark to now.
      events("{\"key\": \"b\", \"timestamp\": 99999999999999, \"value\": 1}");
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                gauges.refresh();
                assertThat(registry.find(MeterNames.SSE_SUBSCRIBERS.name()).gauge())
                    .isNotNull()
                    .satisfies(g -> assertThat(g.value()).isEqualTo(1));
              });
    } finally {
      stream.dispose();
    }
  }

  private void events(String body) {
    client
        .post()
        .uri("/pipelines/{name}/events", PIPELINE)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(body)
        .exchange()
        .expectStatus()
        .isAccepted();
  }

  private void watermark(long millis) {
    client
        .post()
        .uri("/pipelines/{name}/watermark", PIPELINE)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("{\"watermark\": " + millis + "}")
        .exchange()
        .expectStatus()
        .isOk();
  }

  /** What {@code promtool check metrics} says of the scrape, one finding a line. */
  private static List<String> promtool(String scrape) throws IOException, InterruptedException {
    String promtool = promtoolCommand();
    Path input = Files.createTempFile("scrape", ".prom");
    Path output = Files.createTempFile("promtool", ".txt");
    try {
      Files.writeString(input, scrape, StandardCharsets.UTF_8);
      Process process =
          new ProcessBuilder(promtool, "check", "metrics")
              .redirectInput(input.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail("promtool check metrics did not finish within 60 s");
      }
      try (Stream<String> lines = Files.lines(output)) {
        return lines.toList();
      }
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }

  /** Prometheus's promtool; its absence fails the test, saying how to install it. */
  private static String promtoolCommand() throws InterruptedException {
    for (String candidate : PROMTOOL) {
      try {
        Process version =
            new ProcessBuilder(candidate, "--version").redirectErrorStream(true).start();
        version.getInputStream().readAllBytes();
        if (version.waitFor(30, TimeUnit.SECONDS) && version.exitValue() == 0) {
          return candidate;
        }
      } catch (IOException e) {
        // not there under this name; try the next
      }
    }
    return fail(
        "promtool is missing: this test runs Prometheus's `promtool check metrics`. Install it"
            + " (Debian: apt-get install prometheus, which provides /usr/bin/promtool; or put"
            + " promtool from a Prometheus release on the PATH)");
  }
}
