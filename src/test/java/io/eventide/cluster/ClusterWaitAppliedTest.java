package io.eventide.cluster;

import static io.eventide.cluster.ClusterScenario.BASE;
import static io.eventide.cluster.ClusterScenario.KEYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.core.IngestResult;
import io.eventide.definition.json.Timestamps;
import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.LiveApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ?wait=applied} in cluster mode: a request logged at one replica is answered once the
 * owners of its partitions (here on both replicas) have applied it, with what one process would
 * have answered: late and expired events counted as {@code /simulate} counts them. When an owner
 * cannot apply in time (frozen), the answer says so ({@code "applied": false}) and the events,
 * durable in the log, are applied once it can.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterWaitAppliedTest {
  /**
   * Minute windows kept two minutes past their end, a pane for every late element, accumulating (so
   * that the latest pane of a window is its whole value however the log's records were cut into
   * runs); only posted watermarks move event time.
   */
  private static final String DEFINITION =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "trigger": {"type": "afterWatermark", "late": {"type": "afterCount", "count": 1}},
       "allowedLateness": "PT2M",
       "accumulation": "accumulating",
       "aggregate": {"type": "sum"},
       "watermark": {"maxOutOfOrderness": "P365D"}}
      """;

  private final List<JsonNode> steps = new ArrayList<>();

  @Test
  void aWaitingRequestIsAnsweredWithWhatItsPartitionsOwnersMadeOfIt() throws Exception {
    try (ClusterReplicas replicas =
        new ClusterReplicas(2, "--eventide.cluster.apply-timeout=3s").startAll()) {
      LiveApi logging = replicas.api(1);
      logging.define("waits", DEFINITION);

      // Window [0m, 1m) and window [4m, 5m) of every key, and one event without a key.
      ArrayNode first = events(10_000, 1);
      first.addAll(events(250_000, 10));
      first.add(JsonMapper.shared().readTree("{\"timestamp\": " + BASE + ", \"value\": 1}"));
      JsonNode firstAnswer = postAndWait(logging, first, true);
      IngestResult firstCounts = counts(firstAnswer);
      assertThat(firstCounts).isEqualTo(new IngestResult(2 * KEYS, 0, 0, 0, 0, 0, 0, 1));
      // Reading refused it at the replica that took the post: it names it.
      assertThat(indexes(firstAnswer)).containsExactly(2 * KEYS);
      assertThat(firstAnswer.at("/rejected/0/path").asString()).isEqualTo("/key");

      // Window [0m, 1m) fires on time at 2m, provisional until 3m.
      long early = BASE + 120_000;
      replicas.api(0).watermark("waits", "{\"watermark\": " + early + "}");
      steps.add(JsonNodeFactory.instance.objectNode().put("watermark", early));
      await().atMost(Duration.ofMinutes(1)).until(() -> onTime(logging, BASE) == KEYS);
      assertThat(finalResults(logging, BASE + 60_000)).isZero();

      long watermark = BASE + 300_000;
      replicas.api(0).watermark("waits", "{\"watermark\": " + watermark + "}");
      steps.add(JsonNodeFactory.instance.objectNode().put("watermark", watermark));
      // Every owner has the watermark once every key's window [4m, 5m) fired on time.
      await().atMost(Duration.ofMinutes(1)).until(() -> onTime(logging, BASE + 240_000) == KEYS);
      // Window [0m, 1m) closed at 3m with no closing pane (the default closing behaviour): every
      // partition's progress passed it, so any replica answers it final.
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> finalResults(replicas.api(0), BASE + 60_000) == KEYS);

      // Late within the allowed lateness, and past it: window [1m, 2m) expired at 4m.
      ArrayNode late = events(260_000, 100);
      late.addAll(events(90_000, 1000));
      late.add(JsonMapper.shared().readTree("{\"key\": \"k0\", \"timestamp\": \"noon\"}"));
      JsonNode lateAnswer = postAndWait(logging, late, true);
      IngestResult lateCounts = counts(lateAnswer);
      assertThat(lateCounts).isEqualTo(new IngestResult(KEYS, KEYS, 0, 0, KEYS, 0, 0, 1));
      assertThat(firstCounts.plus(lateCounts)).isEqualTo(simulatedCounts(logging));
      // Only the owners knew which were expired: their receipts name them, in the request's
      // positions, beside what reading refused here.
      List<Integer> refused = new ArrayList<>();
      for (int i = KEYS; i <= 2 * KEYS; i++) {
        refused.add(i);
      }
      assertThat(indexes(lateAnswer)).isEqualTo(refused);
      assertThat(lateAnswer.get("rejectedTotal").asInt()).isEqualTo(KEYS + 1);
      for (int i = 0; i < KEYS; i++) {
        assertThat(lateAnswer.at("/rejected/" + i + "/reason").asString()).isEqualTo("expired");
      }
      assertThat(lateAnswer.at("/rejected/" + KEYS + "/path").asString()).isEqualTo("/timestamp");

      // A strict post with an unreadable event is logged not at all: /simulate, which never sees
      // it, computes the same results at the end.
      ArrayNode unreadable = events(265_000, 100_000);
      unreadable.insert(3, JsonMapper.shared().readTree("{\"key\": \"k0\", \"value\": 1}"));
      JsonNode problem =
          logging
              .send(
                  HttpMethod.POST,
                  "/pipelines/waits/events?wait=applied&strict=true",
                  MediaType.APPLICATION_JSON,
                  unreadable.toString())
              .expectProblem(422)
              .body();
      assertThat(problem.at("/rejected/0/index").asInt()).isEqualTo(3);
      assertThat(problem.at("/rejected/0/path").asString()).isEqualTo("/timestamp");

      // Replica 0 owns partitions (cooperative assignment gave it its share) and is frozen:
      // its partitions' records are logged but not applied within the wait.
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> replicas.metric(0, "eventide_cluster_partitions_owned") > 0);
      replicas.freeze(0);
      IngestResult unconfirmed;
      try {
        unconfirmed = counts(postAndWait(logging, events(270_000, 10_000), false));
      } finally {
        replicas.thaw(0);
      }
      assertThat(unconfirmed).isEqualTo(new IngestResult(KEYS, 0, 0, 0, 0, 0, 0, 0));
      // Nothing was lost: every window ends as /simulate computes it over every step.
      Map<String, Double> expected = simulatedResults(logging);
      await()
          .atMost(Duration.ofMinutes(1))
          .untilAsserted(() -> assertThat(results(logging)).isEqualTo(expected));
    }
  }

  /** One event per key at {@code BASE + offsetMs}, each of {@code value}. */
  private static ArrayNode events(long offsetMs, double value) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (int k = 0; k < KEYS; k++) {
      out.addObject().put("key", "k" + k).put("timestamp", BASE + offsetMs).put("value", value);
    }
    return out;
  }

  /** Posts with {@code ?wait=applied}, expecting whether it was applied within the wait. */
  private JsonNode postAndWait(LiveApi api, ArrayNode events, boolean applied) {
    steps.add(JsonNodeFactory.instance.objectNode().set("events", events));
    JsonNode answer =
        api.send(
                HttpMethod.POST,
                "/pipelines/waits/events?wait=applied",
                MediaType.APPLICATION_JSON,
                events.toString())
            .expect(202)
            .body();
    assertThat(answer.get("applied").asBoolean()).as("applied in %s", answer).isEqualTo(applied);
    return answer;
  }

  /** The indexes of the events an answer names as refused, in its order. */
  private static List<Integer> indexes(JsonNode answer) {
    List<Integer> out = new ArrayList<>();
    answer.get("rejected").forEach(r -> out.add(r.get("index").asInt()));
    return out;
  }

  /** Counts as an answer and {@code /simulate} show them. */
  private static IngestResult counts(JsonNode c) {
    return new IngestResult(
        c.get("accepted").asInt(),
        c.get("late").asInt(),
        c.get("duplicates").asInt(),
        c.get("filtered").asInt(),
        c.at("/dropped/expired").asInt(),
        c.at("/dropped/closed").asInt(),
        c.at("/dropped/future").asInt(),
        c.at("/dropped/invalid").asInt());
  }

  /** How many keys' window starting at {@code start} has a pane that is not early. */
  private static long onTime(LiveApi api, long start) {
    long n = 0;
    for (JsonNode r : api.get("/pipelines/waits/results?limit=10000").get("results")) {
      if (r.at("/window/start").asString().equals(Timestamps.format(start))
          && !r.at("/pane/timing").asString().equals("EARLY")) {
        n++;
      }
    }
    return n;
  }

  private JsonNode simulate(LiveApi api) {
    ObjectNode request = JsonNodeFactory.instance.objectNode();
    request.set("pipeline", JsonMapper.shared().readTree(DEFINITION));
    request.putArray("steps").addAll(steps);
    return api.send(HttpMethod.POST, "/simulate", MediaType.APPLICATION_JSON, request.toString())
        .expect(200)
        .body();
  }

  private IngestResult simulatedCounts(LiveApi api) {
    return counts(simulate(api).get("counts"));
  }

  /** The value of every window's latest pane, by {@code /simulate}. */
  private Map<String, Double> simulatedResults(LiveApi api) {
    Map<String, Double> out = new TreeMap<>();
    for (JsonNode pane : simulate(api).get("outputs")) {
      out.put(ClusterScenario.window(pane), pane.get("value").asDouble());
    }
    return out;
  }

  /** How many results of windows ending at {@code end} are final. */
  private static long finalResults(LiveApi api, long end) {
    long n = 0;
    for (JsonNode r : api.get("/pipelines/waits/results?limit=10000").get("results")) {
      if (r.at("/window/end").asString().equals(Timestamps.format(end))
          && r.get("final").asBoolean()) {
        n++;
      }
    }
    return n;
  }

  private static Map<String, Double> results(LiveApi api) {
    Map<String, Double> out = new TreeMap<>();
    for (JsonNode r : api.get("/pipelines/waits/results?limit=10000").get("results")) {
      out.put(ClusterScenario.window(r), r.get("value").asDouble());
    }
    return out;
  }
}
