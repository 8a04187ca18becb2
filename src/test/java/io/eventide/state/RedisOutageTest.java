package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.runtime.LiveApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Redis goes away in the middle of ingestion and comes back: while it is away ingestion answers 503
 * problem+json with Retry-After and readiness is DOWN; nothing answered 503 is applied, nothing
 * answered 202 is lost, and the service recovers by itself.
 */
class RedisOutageTest {
  /** Counts.next() makes batches of ten events; NDJSON is applied in batches of that size. */
  private static final int NDJSON_BATCH = 10;

  @Test
  void ingestionAnswers503WhileRedisIsAwayAndRecoversWhenItReturns() throws Exception {
    try (ServiceOnOwnRedis service = start()) {
      StoppableRedis redis = service.redis;
      LiveApi api = service.api;
      api.define("outage", TestRedis.RUNNING_COUNT);
      Counts counts = new Counts();
      for (int i = 0; i < 20; i++) {
        counts.send(api);
      }
      assertThat(counts.refused).isZero();
      assertThat(readiness(api)).isEqualTo(200);

      redis.stop();
      LiveApi.Reply refused = send(api, counts.next(), counts);
      refused.expectProblem(503);
      assertThat(refused.headers().getFirst("Retry-After")).isEqualTo("1");
      assertThat(refused.body().get("detail").asString()).contains("nothing of this request");
      for (int i = 0; i < 5; i++) {
        assertThat(counts.send(api)).isEqualTo(503);
      }
      // Reads and definitions need Redis too, and say so the same way.
      api.send(HttpMethod.GET, "/pipelines/outage/results", null, null).expectProblem(503);
      api.put("other", TestRedis.RUNNING_COUNT).expectProblem(503);
      await().atMost(Duration.ofSeconds(20)).until(() -> readiness(api) == 503);

      redis.resume();
      await().atMost(Duration.ofSeconds(60)).until(() -> readiness(api) == 200);
      await().atMost(Duration.ofSeconds(60)).until(() -> counts.send(api) == 202);
      for (int i = 0; i < 20; i++) {
        counts.send(api);
      }
      assertThat(counts.refused).isPositive();
      // Every acknowledged event is counted once; no refused one is.
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(total(api)).isEqualTo(counts.acknowledged));
    }
  }

  @Test
  void anNdjsonBodyCutShortByTheOutageSaysWhatItsEarlierBatchesApplied() throws Exception {
    try (ServiceOnOwnRedis service = start()) {
      StoppableRedis redis = service.redis;
      LiveApi api = service.api;
      api.define("outage", TestRedis.RUNNING_COUNT);
      Sinks.Many<String> body = Sinks.many().unicast().onBackpressureBuffer();
      CompletableFuture<LiveApi.Reply> reply =
          CompletableFuture.supplyAsync(
              () -> api.postEvents("outage", LiveApi.NDJSON, body.asFlux()));
      Counts counts = new Counts();
      body.tryEmitNext(ndjson(counts.next()));
      // The first batch is committed before Redis goes away; the second is not.
      await().atMost(Duration.ofSeconds(20)).until(() -> total(api) == NDJSON_BATCH);
      redis.stop();
      body.tryEmitNext(ndjson(counts.next()));
      body.tryEmitComplete();

      LiveApi.Reply cut = reply.get();
      cut.expectProblem(503);
      assertThat(cut.body().at("/applied/accepted").asLong()).isEqualTo(NDJSON_BATCH);
      assertThat(cut.body().get("detail").asString()).contains("counted in applied");
    }
  }

  /** The JSON array of a batch as NDJSON lines. */
  private static String ndjson(String array) {
    StringBuilder lines = new StringBuilder();
    for (JsonNode event : JsonMapper.shared().readTree(array)) {
      lines.append(event).append('\n');
    }
    return lines.toString();
  }

  private static ServiceOnOwnRedis start() throws Exception {
    return ServiceOnOwnRedis.start(
        "--spring.data.redis.timeout=2s",
        "--eventide.runtime.shards=2",
        "--eventide.ingest.ndjson-batch-events=" + NDJSON_BATCH);
  }

  private static int readiness(LiveApi api) {
    return api.send(HttpMethod.GET, "/actuator/health/readiness", null, null).status();
  }

  private static long total(LiveApi api) {
    long sum = 0;
    for (JsonNode r : api.get("/pipelines/outage/results").get("results")) {
      sum += r.get("value").asLong();
    }
    return sum;
  }

  private static LiveApi.Reply send(LiveApi api, String body, Counts counts) {
    LiveApi.Reply reply = api.postEvents("outage", MediaType.APPLICATION_JSON, body);
    if (reply.status() == 503) {
      counts.refused++;
    } else {
      assertThat(reply.status()).isEqualTo(202);
      counts.acknowledged += reply.body().get("accepted").asLong();
    }
    return reply;
  }

  /** Batches of ten events over ten keys; what was acknowledged and what was refused. */
  private static final class Counts {
    long acknowledged;
    int refused;
    int batch;

    String next() {
      List<String> events = new ArrayList<>();
      for (int k = 0; k < 10; k++) {
        events.add(
            "{\"key\":\"k%d\",\"timestamp\":\"2026-01-01T10:%02d:00Z\",\"value\":1}"
                .formatted(k, batch % 60));
      }
      batch++;
      return "[" + String.join(",", events) + "]";
    }

    int send(LiveApi api) {
      return RedisOutageTest.send(api, next(), this).status();
    }
  }
}
