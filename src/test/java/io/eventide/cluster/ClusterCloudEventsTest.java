package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * CloudEvents in cluster mode: the replica that takes a batch reads and checks it, and logs each
 * CloudEvent as one; the owners of its partitions, on both replicas, read it as one too (its id
 * de-duplicates it, its attributes are checked again for its dead letter).
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
    }
  }
}
