package io.eventide.cluster;

import static io.eventide.cluster.ClusterScenario.BASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.definition.json.Timestamps;
import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import io.eventide.runtime.PaneStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Progress on a pane stream in cluster mode (issue 35): windows that close without a closing pane
 * (the default closing behaviour, with allowed lateness) on partitions owned by either replica
 * become final on a stream open on one of them, which learns every partition's progress from the
 * pane log (the other replica's commits wake it; the safety net's poll is off), and {@code
 * /results} and the status on either replica then answer them final, while {@code /windows} lists
 * them no more.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterProgressTest {
  /** Minute windows kept two minutes; only posted watermarks move event time. */
  private static final String DEFINITION =
      """
      {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "PT2M",
       "aggregate": {"type": "sum"},
       "watermark": {"maxOutOfOrderness": "P365D"}}
      """;

  /**
   * Enough keys that every one of the six partitions has some (the chance that one has none is
   * below one in ten million), so that the stream's replica does not own all of theirs.
   */
  private static final int KEYS = 100;

  @Test
  void aStreamOnEitherReplicaSeesEveryPartitionsWindowsBecomeFinalWithoutAClosingPane()
      throws Exception {
    try (ClusterReplicas replicas =
        new ClusterReplicas(2, "--eventide.outputs.sse-poll=1h").startAll()) {
      LiveApi producer = replicas.api(1);
      LiveApi dashboard = replicas.api(0);
      producer.define("progress", DEFINITION);
      String end = Timestamps.format(BASE + 60_000);
      String finalAt = Timestamps.format(BASE + 180_000);

      // Each replica owns some of the partitions: the stream's replica reads windows the other
      // one commits.
      replicas.awaitEveryReplicaOwnsPartitions();
      try (PaneStream stream = dashboard.panes("progress", "")) {
        // No partition has committed: nothing is final yet.
        assertThat(stream.nextProgress().data().get("finalThrough").asString()).isEqualTo("-inf");
        ArrayNode events = JsonNodeFactory.instance.arrayNode();
        for (int k = 0; k < KEYS; k++) {
          events.addObject().put("key", "k" + k).put("timestamp", BASE + 30_000).put("value", k);
        }
        JsonNode answer =
            producer
                .send(
                    HttpMethod.POST,
                    "/pipelines/progress/events?wait=applied",
                    MediaType.APPLICATION_JSON,
                    events.toString())
                .expect(202)
                .body();
        assertThat(answer.get("applied").asBoolean()).as("%s", answer).isTrue();

        // On time at the window's end: every key's pane, provisional until finalAt.
        producer.watermark("progress", "{\"watermark\": \"" + end + "\"}");
        Set<String> keys = new HashSet<>();
        while (keys.size() < KEYS) {
          JsonNode pane = stream.nextPane();
          assertThat(pane.at("/pane/timing").asString()).isEqualTo("ON_TIME");
          assertThat(pane.get("final").asBoolean()).isFalse();
          assertThat(pane.get("finalAt").asString()).isEqualTo(finalAt);
          keys.add(pane.get("key").asString());
        }
        JsonNode fired = stream.progressThrough(end);
        assertThat(fired.get("finalThrough").asString()).isLessThan(finalAt);
        assertThat(finalResults(dashboard)).isZero();
        // Still open, read from the partitions' state in Redis: not final, and when it will be.
        JsonNode open = dashboard.get("/pipelines/progress/windows?limit=1000").get("windows");
        assertThat(open).hasSize(KEYS);
        for (JsonNode w : open) {
          assertThat(w.get("final").asBoolean()).isFalse();
          assertThat(w.get("finalAt").asString()).isEqualTo(finalAt);
        }

        // Past finalAt: the windows close with no pane, and only progress says so.
        producer.watermark("progress", "{\"watermark\": \"" + finalAt + "\"}");
        JsonNode closed = stream.progressThrough(finalAt);
        assertThat(closed.get("finalThrough").asString()).isEqualTo(finalAt);
        assertThat(closed.get("pipeline").asString()).isEqualTo("progress");
        assertThat(stream.drained()).as("no pane closes a window").isEmpty();
      }
      // The progress is every partition's: either replica answers every window final.
      for (int i = 0; i < replicas.count(); i++) {
        JsonNode results = replicas.api(i).get("/pipelines/progress/results?limit=1000");
        assertThat(results.get("finalThrough").asString()).isEqualTo(finalAt);
        assertThat(finalResults(replicas.api(i))).as("final on replica %d", i).isEqualTo(KEYS);
        JsonNode status = replicas.api(i).get("/pipelines/status").at("/pipelines/0");
        assertThat(status.get("finalThrough").asString()).as("status on %d", i).isEqualTo(finalAt);
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> dashboard.get("/pipelines/progress/windows").get("windows").isEmpty());
    }
  }

  /** How many results are final. */
  private static long finalResults(LiveApi api) {
    long n = 0;
    for (JsonNode r : api.get("/pipelines/progress/results?limit=1000").get("results")) {
      if (r.get("final").asBoolean()) {
        n++;
      }
    }
    return n;
  }
}
