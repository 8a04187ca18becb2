package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.kafka.KafkaTestBroker;
import io.eventide.state.TestRedisCluster;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Cluster mode (the {@code cluster} profile, the test broker) with its state on a real Redis
 * Cluster of three primaries ({@link TestRedisCluster}): every partition's commit is a script on
 * the primary of the pipeline's slot. One of two replicas is SIGKILLed mid-stream and started
 * again, and every event the ingest log holds is counted exactly once ({@link
 * ClusterScenario#assertExactlyOnce}).
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterOnRedisClusterTest {
  @Test
  void aReplicaKilledMidStreamCountsEveryLoggedEventOnce() throws Exception {
    TestRedisCluster cluster = TestRedisCluster.get();
    try (ClusterReplicas replicas =
        new ClusterReplicas(cluster, 2, "--spring.profiles.active=cluster").startAll()) {
      replicas.api(0).define("payments", ClusterScenario.DEFINITION);
      ClusterScenario.killMidStream(replicas, "payments", 120, 1, 0);

      // All of the pipeline's keys, every partition's among them, share its slot: one primary.
      Map<String, Integer> perPrimary = cluster.keysPerPrimary(replicas.prefix() + ":{payments}:*");
      assertThat(perPrimary.values().stream().filter(keys -> keys > 0).count())
          .as("primaries holding the pipeline's keys: %s", perPrimary)
          .isEqualTo(1);
    }
  }
}
