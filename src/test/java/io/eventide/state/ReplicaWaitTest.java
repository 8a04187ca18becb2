package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * With {@code eventide.state.redis.wait-replicas}, a 202 means a replica has the batch too; while
 * the replica is stalled, the answer says that the batch was applied but not replicated, with what
 * was applied, instead of pretending either way.
 */
class ReplicaWaitTest {
  private static final int BATCH = 10;

  @Test
  void aBatchIsAcknowledgedOnceAReplicaHasItAndSaysSoWhenNoneConfirms() throws Exception {
    try (ServiceOnOwnRedis service =
            ServiceOnOwnRedis.start(
                "--spring.data.redis.timeout=2s",
                "--eventide.state.redis.wait-replicas=1",
                // Long enough for a replica that is up to confirm on a loaded machine (300 ms
                // once failed the first batch in CI), short of the 2 s command timeout.
                "--eventide.state.redis.wait-timeout=1s");
        StoppableRedis replica = StoppableRedis.replicaOf(service.redis)) {
      LiveApi api = service.api;
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> replica.cli("INFO", "replication").contains("master_link_status:up"));
      api.define("replicated", TestRedis.RUNNING_COUNT);
      assertThat(send(api, 0).status()).isEqualTo(202);

      replica.freeze();
      LiveApi.Reply unconfirmed = send(api, 1);
      unconfirmed.expectProblem(503);
      assertThat(unconfirmed.body().get("outcome").asString()).isEqualTo("applied");
      assertThat(unconfirmed.body().at("/applied/accepted").asLong()).isEqualTo(BATCH);
      // Applied means applied: the batch counts, and sending the next one is all there is to do.
      assertThat(total(api)).isEqualTo(2 * BATCH);

      replica.thaw();
      String meta = metaKey(service);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  replica
                      .cli("HGET", meta, "commit")
                      .equals(service.redis.cli("HGET", meta, "commit")));
      assertThat(send(api, 2).status()).isEqualTo(202);
      assertThat(total(api)).isEqualTo(3 * BATCH);
    }
  }

  private static String metaKey(ServiceOnOwnRedis service) {
    String prefix = service.app.getEnvironment().getProperty("eventide.state.key-prefix");
    return prefix + ":{replicated}:meta";
  }

  /** Batch {@code n}: one event for each of ten keys, without ids. */
  private static LiveApi.Reply send(LiveApi api, int n) {
    List<String> events = new ArrayList<>();
    for (int k = 0; k < BATCH; k++) {
      events.add(LiveApi.event("k" + k, "2026-01-01T10:%02d:00Z".formatted(n), 1));
    }
    return api.postEvents(
        "replicated", MediaType.APPLICATION_JSON, "[" + String.join(",", events) + "]");
  }

  private static long total(LiveApi api) {
    long sum = 0;
    for (JsonNode r : api.get("/pipelines/replicated/results").get("results")) {
      sum += r.get("value").asLong();
    }
    return sum;
  }
}
