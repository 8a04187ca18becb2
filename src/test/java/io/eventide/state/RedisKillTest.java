package io.eventide.state;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The service in a child JVM, killed with SIGKILL in the middle of ingestion and started again: no
 * acknowledged event is lost, a producer that resends what was not acknowledged (same event ids)
 * has each event counted exactly once, and no pane index appears twice in the pane log ({@link
 * KillMidIngestion}).
 */
class RedisKillTest {
  private final String prefix = TestRedis.newKeyPrefix();

  @Test
  void afterKillDashNineTheServiceResumesWhereItWasCommitted() throws Exception {
    try (ChildService child = ChildService.start(TestRedis.url(), prefix)) {
      KillMidIngestion.run(child, List.of("killed"));
    } finally {
      TestRedis.delete(prefix);
    }
  }
}
