package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LatenessFeed;
import io.eventide.runtime.LiveApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The lateness advisor in cluster mode: each partition's owner keeps its own, and either replica
 * answers their merge.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterLatenessTest {
  private static final int KEYS = 24;

  @Test
  void eitherReplicaAnswersTheAdvisorsOfEveryPartitionMerged() throws Exception {
    try (ClusterReplicas replicas =
        new ClusterReplicas(2, "--eventide.ingest.lateness-write-interval=0s").startAll()) {
      LiveApi api = replicas.api(0);
      api.define("advised", LatenessFeed.DEFINITION);
      api.watermark("advised", "{\"watermark\": \"" + LatenessFeed.WATERMARK + "\"}");
      // Every partition's engine has the watermark once what is final has reached it.
      await()
          .atMost(Duration.ofMinutes(1))
          .until(
              () ->
                  api.get("/pipelines/advised/results")
                      .get("finalThrough")
                      .asString()
                      .equals(LatenessFeed.WATERMARK));
      List<JsonNode> events = new ArrayList<>();
      for (int k = 0; k < KEYS; k++) {
        JsonMapper.shared().readTree(LatenessFeed.events("k" + k)).forEach(events::add);
      }
      JsonNode answer =
          replicas
              .api(1)
              .send(
                  HttpMethod.POST,
                  "/pipelines/advised/events?wait=applied",
                  MediaType.APPLICATION_JSON,
                  events.toString())
              .expect(202)
              .body();
      assertThat(answer.get("applied").asBoolean()).isTrue();
      // Every event of every partition is in the merge, and both replicas answer the same. Which
      // events were on time is not fixed here, unlike in one process: each partition applies its
      // share in parallel, and a source's later events applied in one partition move the
      // watermark the others apply theirs under.
      JsonNode first = replicas.api(0).get("/pipelines/advised/lateness");
      assertThat(first.get("events").asLong()).isEqualTo(4L * KEYS);
      assertThat(first.get("onTime").asLong()).isBetween(1L, 4L * KEYS);
      assertThat(first.get("sources")).hasSize(2);
      assertThat(replicas.api(1).get("/pipelines/advised/lateness")).isEqualTo(first);
    }
  }
}
