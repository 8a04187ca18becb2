package io.eventide.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LatenessFeed;
import io.eventide.runtime.LiveApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The lateness advisor over Redis: committed with the pipeline's state, answered by any replica,
 * and taken up again by the owner after a restart, which goes on adding to it.
 */
class RedisLatenessTest {
  private static final String EVERY_COMMIT = "--eventide.ingest.lateness-write-interval=0s";

  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  @Test
  void theAdvisorIsReadFromRedisByAnyReplicaAndSurvivesARestart() {
    ConfigurableApplicationContext owner = RedisEventide.start(prefix, EVERY_COMMIT);
    try (ConfigurableApplicationContext reader = RedisEventide.start(prefix, EVERY_COMMIT)) {
      LatenessFeed.feed(RedisEventide.api(owner), "advised");
      LatenessFeed.assertFed(RedisEventide.api(reader).get("/pipelines/advised/lateness"));

      owner.close();
      owner = RedisEventide.start(prefix, EVERY_COMMIT);
      LiveApi restarted = RedisEventide.api(owner);
      LatenessFeed.assertFed(restarted.get("/pipelines/advised/lateness"));
      LatenessFeed.feedOneMore(restarted, "advised");
      assertThat(restarted.get("/pipelines/advised/lateness").at("/sources/1/events").asLong())
          .isEqualTo(3);
    } finally {
      owner.close();
    }
  }

  @Test
  void withTheDefaultIntervalTheFirstCommitWritesTheAdvisor() {
    try (ConfigurableApplicationContext app = RedisEventide.start(prefix)) {
      LatenessFeed.feed(RedisEventide.api(app), "advised");
      LatenessFeed.assertFed(RedisEventide.api(app).get("/pipelines/advised/lateness"));
    }
  }
}
