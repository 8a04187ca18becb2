package io.eventide.abuse;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.EventideApplication;
import io.eventide.runtime.LiveApi;
import io.eventide.state.RedisEventide;
import io.eventide.state.TestRedis;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * The CEL allocation case of issue 34 (item 1) at its worst, through real HTTP, in the
 * fault-and-abuse suite: a filter mapping over the event's list of 1000 (the most iterations an
 * evaluation may take) and concatenating a 400 000-character field with itself each time would
 * build 800 million characters. Posted live (memory and Redis state) and to {@code /simulate}, the
 * event is refused as invalid and dead-lettered, the answer comes within the client's timeout
 * ({@link LiveApi#TIMEOUT}), the service stays alive and another pipeline goes on counting.
 * ExpressionAllocationTest holds the budget itself, SimulateApiTest a smaller case in /simulate.
 */
class CelAllocationAbuseTest {
  private static final String FILTER = "event.items.map(x, event.big + event.big).size() > 0";
  private static final int ATTACKS = AbuseScale.of(3);

  /** An event whose list and field make {@link #FILTER} build 800 million characters. */
  private static final String ATTACK_EVENT =
      "{\"key\": \"k\", \"timestamp\": 0, \"items\": [%s], \"big\": \"%s\"}"
          .formatted(
              IntStream.range(0, 1000).mapToObj(String::valueOf).collect(Collectors.joining(",")),
              "x".repeat(400_000));

  private static final String ABUSED =
      """
      {"window": {"type": "global"}, "aggregate": {"type": "count"}, "accumulation": "accumulating",
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "filter": "%s"}
      """
          .formatted(FILTER);

  private static final String BYSTANDER =
      """
      {"window": {"type": "global"}, "aggregate": {"type": "count"}, "accumulation": "accumulating",
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}}}
      """;

  enum Store {
    MEMORY,
    REDIS
  }

  @ParameterizedTest
  @EnumSource(Store.class)
  void anEventThatWouldBuildTooMuchIsDeadLetteredAndTheServiceGoesOn(Store store) {
    String prefix = TestRedis.newKeyPrefix();
    ConfigurableApplicationContext app =
        store == Store.REDIS
            ? RedisEventide.start(prefix)
            : new SpringApplicationBuilder(EventideApplication.class).run("--server.port=0");
    try {
      LiveApi api = RedisEventide.api(app);
      api.define("abused", ABUSED);
      api.define("bystander", BYSTANDER);
      String attack =
          "["
              + ATTACK_EVENT
              + ", {\"key\": \"k\", \"timestamp\": 1, \"items\": [1],"
              + " \"big\": \"small\"}]";

      for (int i = 0; i < ATTACKS; i++) {
        long started = System.nanoTime();
        JsonNode answer = api.events("abused", attack);
        double millis = (System.nanoTime() - started) / 1e6;
        assertThat(answer.get("accepted").asInt()).isEqualTo(1);
        assertThat(answer.at("/dropped/invalid").asInt()).isEqualTo(1);
        assertThat(answer.at("/rejected/0/index").asInt()).isZero();
        assertThat(answer.at("/rejected/0/reason").asString()).isEqualTo("invalid");
        assertThat(answer.at("/rejected/0/detail").asString())
            .contains("eventide.pipelines.max-expression-allocation");
        System.out.printf(
            "abuse figure: CEL allocation, %s, live post %d answered 202 in %.0f ms%n",
            store, i + 1, millis);
        // Another pipeline's producer is served between the attacks.
        assertThat(
                api.events("bystander", "{\"key\": \"b\", \"timestamp\": " + i + "}")
                    .get("accepted")
                    .asInt())
            .isEqualTo(1);
      }

      JsonNode letter = api.get("/pipelines/abused/dead-letters").at("/deadLetters/0");
      assertThat(letter.get("reason").asString()).isEqualTo("invalid");
      assertThat(letter.get("detail").asString())
          .contains("eventide.pipelines.max-expression-allocation");
      assertThat(api.get("/pipelines/abused/results").at("/results/0/value").asLong())
          .isEqualTo(ATTACKS);
      assertThat(api.get("/pipelines/bystander/results").at("/results/0/value").asLong())
          .isEqualTo(ATTACKS);

      long started = System.nanoTime();
      JsonNode simulated =
          api.send(
                  HttpMethod.POST,
                  "/simulate",
                  MediaType.APPLICATION_JSON,
                  """
                  {"pipeline": %s,
                   "steps": [{"events": [%s]}, {"watermark": "+inf"}]}
                  """
                      .formatted(ABUSED, ATTACK_EVENT))
              .expect(200)
              .body();
      System.out.printf(
          "abuse figure: CEL allocation, %s, /simulate answered 200 in %.0f ms%n",
          store, (System.nanoTime() - started) / 1e6);
      assertThat(simulated.at("/counts/dropped/invalid").asLong()).isEqualTo(1);
      assertThat(simulated.at("/dropped/0/detail").asString())
          .contains("eventide.pipelines.max-expression-allocation");

      assertThat(api.get("/actuator/health/liveness").get("status").asString()).isEqualTo("UP");
    } finally {
      app.close();
      if (store == Store.REDIS) {
        TestRedis.delete(prefix);
      }
    }
  }
}
