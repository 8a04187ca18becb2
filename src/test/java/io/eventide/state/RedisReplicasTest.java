package io.eventide.state;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LiveApi;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two replicas over one Redis, in this JVM: what one of them does to a definition holds for the
 * other, which may not be running the pipeline, or may still be running it after it was deleted.
 */
class RedisReplicasTest {
  private final String prefix = "test-" + UUID.randomUUID();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  private ConfigurableApplicationContext start() {
    return RedisEventide.start(prefix, "--eventide.runtime.tick=20ms");
  }

  private static LiveApi api(ConfigurableApplicationContext app) {
    return RedisEventide.api(app);
  }

  @Test
  void aChangeWithoutResetIsRefusedWhereTheStateIsKeptThoughThisReplicaDoesNotRunIt() {
    try (ConfigurableApplicationContext a = start();
        ConfigurableApplicationContext b = start()) {
      api(a).define("counts", TestRedis.RUNNING_COUNT);
      api(a).events("counts", array(event("k", "2026-01-01T10:00:00Z", 1)));

      LiveApi.Reply refused = api(b).put("counts", TestRedis.RUNNING_COUNT.replace("1h", "1m"));
      refused.expectProblem(409);
      assertThat(refused.body().get("detail").asString()).contains("window");

      assertThat(api(a).get("/pipelines/counts/results").get("results")).hasSize(1);
    }
  }
}
