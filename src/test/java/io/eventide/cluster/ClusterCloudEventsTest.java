package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.BinaryCloudEvent;
import io.eventide.runtime.LiveApi;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * CloudEvents in cluster mode: the replica that takes a batch reads and checks it, and logs each
 * CloudEvent as one; the owners of its partitions, on both replicas, read it as one too (its id
 * de-duplicates it, its attributes are checked again for its dead letter). A post of one CloudEvent
 * whose required attributes are wrong is refused with 400 before anything of it is logged.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterCloudEventsTest {
  private static final MediaType BATCH =
      MediaType.parseMediaType("application/cloudevents-batch+json");

  private static final String SALES =
      """
      {"window": {"type": "fixed", "size": "1h"}, "aggregate": {"type": "sum"},
       "event": {"key": "/region", "value": "/amount"}}
      """;

  private static String sale(int i, boolean withId) {
    return """
        {"specversion": "1.0", %s"source": "/shops/%d", "type": "com.example.sale",
         "time": "2026-01-01T10:00:%02dZ", "data": {"region": "r%d", "amount": %d}}
        """
        .formatted(withId ? "\"id\": \"c" + i + "\", " : "", i % 3, i, i, i);
  }

  private static JsonNode postAndWait(LiveApi api, String body) {
    return api.send(HttpMethod.POST, "/pipelines/ce-cluster/events?wait=applied", BATCH, body)
        .expect(202)
        .body();
  }

  @Test
  void theOwnersReadALoggedCloudEventAsOne() throws Exception {
    try (ClusterReplicas replicas = new ClusterReplicas(2)) {
      // Started inside, so that replicas slow to start are stopped all the same.
      replicas.startAll();
      LiveApi logging = replicas.api(1);
      logging.define("ce-cluster", SALES);
      List<String> sales = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        sales.add(sale(i, true));
      }
      sales.add(sale(12, false));
      String body = "[" + String.join(",", sales) + "]";

      JsonNode first = postAndWait(logging, body);
      assertThat(first.get("applied").asBoolean()).isTrue();
      assertThat(first.get("accepted").asInt()).isEqualTo(12);
      assertThat(first.at("/rejected/0/index").asInt()).isEqualTo(12);
      assertThat(first.at("/rejected/0/path").asString()).isEqualTo("/id");

      // Only an owner that read the ids as the CloudEvents' knows the batch again.
      JsonNode again = postAndWait(logging, body);
      assertThat(again.get("applied").asBoolean()).isTrue();
      assertThat(again.get("duplicates").asInt()).isEqualTo(12);
      assertThat(again.get("accepted").asInt()).isZero();

      // The owner dead-lettered the event without an id as a CloudEvent, as this replica read it.
      JsonNode letters = replicas.api(0).get("/pipelines/ce-cluster/dead-letters");
      assertThat(letters.get("deadLetters")).hasSize(2);
      letters
          .get("deadLetters")
          .forEach(letter -> assertThat(letter.get("path").asString()).isEqualTo("/id"));

      // A post of one CloudEvent whose attributes are wrong is refused before it is logged.
      String log = replicas.namespace() + "ce-cluster.events";
      long logged = loggedCloudEvents(log);
      JsonNode structured =
          logging
              .send(
                  HttpMethod.POST,
                  "/pipelines/ce-cluster/events?wait=applied",
                  MediaType.parseMediaType("application/cloudevents+json"),
                  sale(13, false))
              .expectProblem(400)
              .body();
      assertThat(structured.get("detail").asString()).isEqualTo("/id is required");
      JsonNode binary =
          logging
              .send(
                  HttpMethod.POST,
                  "/pipelines/ce-cluster/events?wait=applied",
                  MediaType.APPLICATION_JSON,
                  "{\"region\": \"r14\", \"amount\": 14}",
                  BinaryCloudEvent.headers("c14", "/shops/2", "noon"))
              .expectProblem(400)
              .body();
      assertThat(binary.get("detail").asString())
          .isEqualTo(
              "ce-time must be an RFC 3339 timestamp such as 2018-04-05T17:31:00Z (got 'noon')");
      assertThat(loggedCloudEvents(log)).isEqualTo(logged);
      assertThat(postAndWait(logging, "[" + sale(0, true) + "]").get("duplicates").asInt())
          .isEqualTo(1);
      assertThat(replicas.api(0).get("/pipelines/ce-cluster/dead-letters").get("deadLetters"))
          .hasSize(2);
    }
  }

  /** How many CloudEvents the ingest topic holds. */
  private static long loggedCloudEvents(String topic) {
    return IngestTopic.records(topic).stream()
        .filter(
            r -> {
              Header kind = r.headers().lastHeader("eventide-kind");
              return kind != null
                  && new String(kind.value(), StandardCharsets.UTF_8).equals("CLOUD_EVENT");
            })
        .count();
  }
}
