package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.runtime.PaneStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three replicas in cluster mode; a producer posts events WITHOUT ids round-robin to all three, and
 * one replica is SIGKILLed mid-stream and started again. Whatever the kill cut off, every event the
 * ingest log holds is counted exactly once ({@link ClusterScenario#assertExactlyOnce}). A watermark
 * posted to one replica closes the windows of every partition, and a dashboard following the panes
 * on another replica that is then killed resumes on a third with {@code Last-Event-ID} and misses
 * nothing.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterKillTest {
  private static final int BATCHES = 120;

  @Test
  void aReplicaKilledMidStreamLosesNothingAndCountsNothingTwice() throws Exception {
    try (ClusterReplicas replicas = new ClusterReplicas(3).startAll()) {
      replicas.api(0).define("kill", ClusterScenario.DEFINITION);
      PaneStream dashboard = replicas.api(0).panes("kill", "");
      List<PaneStream.Received> log =
          ClusterScenario.killMidStream(replicas, "kill", BATCHES, 1, 2);

      // The dashboard on replica 0 resumes on replica 2 after replica 0 dies, missing nothing.
      List<PaneStream.Received> seen = new ArrayList<>(dashboard.drained());
      replicas.kill(0);
      seen.addAll(dashboard.drained());
      String lastId = seen.isEmpty() ? "0" : seen.get(seen.size() - 1).id();
      int remaining = log.size() - seen.size();
      if (remaining > 0) {
        try (PaneStream resumed = replicas.api(2).resume("kill", lastId)) {
          seen.addAll(resumed.next(remaining));
        }
      }
      assertThat(seen.stream().map(PaneStream.Received::id).toList())
          .isEqualTo(log.stream().map(PaneStream.Received::id).toList());
    }
  }
}
