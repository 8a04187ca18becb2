package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.PipelineRegistry;
import io.eventide.runtime.LiveApi;
import io.eventide.runtime.RunningPipelines;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;

/**
 * Redefinitions of one pipeline sent at once, while events arrive, over real HTTP: whichever of
 * them apply, they apply one after another, so that the definition stored and the one the running
 * engine computes with are the same, before a restart and after it.
 */
class ConcurrentDefinitionsTest {
  private static final int ROUNDS = 20;
  private static final String COUNT = definition("count", "0s");

  private final String prefix = "test-" + UUID.randomUUID();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  /** A running count per key and hour, or a running sum, keeping state across batches. */
  private static String definition(String aggregate, String outOfOrderness) {
    return """
        {"window": {"type": "fixed", "size": "1h"},
         "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
         "accumulation": "accumulating",
         "watermark": {"maxOutOfOrderness": "%s"},
         "aggregate": {"type": "%s"}}
        """
        .formatted(outOfOrderness, aggregate);
  }

  @Test
  void theEngineRunsTheStoredDefinitionWhateverOrderConcurrentPutsTake() throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(5);
    try {
      try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
        LiveApi api = RedisEventide.api(app);
        for (int round = 0; round < ROUNDS; round++) {
          String name = "race-" + round;
          api.define(name, COUNT);
          api.events(name, array(event("k", "2026-01-01T10:00:00Z", 1)));
          AtomicBoolean putting = new AtomicBoolean(true);
          CompletableFuture<Void> feeding =
              CompletableFuture.runAsync(
                  () -> {
                    while (putting.get()) {
                      api.postEvents(
                          name,
                          MediaType.APPLICATION_JSON,
                          array(event("k", "2026-01-01T10:00:01Z", 1)));
                    }
                  },
                  clients);
          List<CompletableFuture<LiveApi.Reply>> puts = new ArrayList<>();
          puts.add(put(api, name + "?reset=true", definition("sum", "0s"), clients));
          puts.add(put(api, name, definition("count", "1s"), clients));
          puts.add(put(api, name, definition("count", "2s"), clients));
          puts.add(put(api, name + "?reset=true", definition("sum", "3s"), clients));
          for (CompletableFuture<LiveApi.Reply> put : puts) {
            assertThat(put.join().status()).isIn(200, 409);
          }
          putting.set(false);
          feeding.join();
          assertEngineRunsTheStoredDefinition(app, api, name);
        }
      }
      try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
        LiveApi api = RedisEventide.api(app);
        for (int round = 0; round < ROUNDS; round++) {
          assertEngineRunsTheStoredDefinition(app, api, "race-" + round);
        }
      }
    } finally {
      clients.shutdownNow();
    }
  }

  private static CompletableFuture<LiveApi.Reply> put(
      LiveApi api, String path, String definition, ExecutorService clients) {
    return CompletableFuture.supplyAsync(() -> api.put(path, definition), clients);
  }

  /**
   * A new key's first event of 5 counts 1 or sums to 5, as the stored aggregate says, and the
   * runtime holds the stored definition itself.
   */
  private static void assertEngineRunsTheStoredDefinition(
      ConfigurableApplicationContext app, LiveApi api, String name) {
    String key = "probe-" + UUID.randomUUID();
    api.events(name, array(event(key, "2026-01-01T10:00:02Z", 5)));
    PipelineDefinition stored = app.getBean(PipelineRegistry.class).find(name).block();
    assertThat(app.getBean(RunningPipelines.class).find(name).definition())
        .as("the runtime's definition of %s", name)
        .isEqualTo(stored);
    String aggregate = api.get("/pipelines/" + name).at("/aggregate/type").asString();
    long value =
        api.get("/pipelines/" + name + "/results?key=" + key)
            .get("results")
            .get(0)
            .get("value")
            .asLong();
    assertThat(value).as("%s of %s", aggregate, name).isEqualTo(aggregate.equals("sum") ? 5 : 1);
  }
}
