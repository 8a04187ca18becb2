package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.kafka.KafkaTestBroker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A replica frozen with SIGSTOP past its session timeout loses its partitions to the other, which
 * fences it; thawed, whatever it held (a poll in hand, timers its beat fires at once) is refused
 * FENCED, and it reads partitions again only as the group hands them back: nothing is counted
 * twice. (That the refusal itself happens is {@code PartitionOwnershipTest}'s to show: whether the
 * thawed replica has anything in hand depends on where SIGSTOP caught it.)
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterFreezeTest {
  private static final int BATCHES = 80;

  @Test
  void aReplicaFrozenPastItsSessionCountsNothingTwiceWhenItThaws() throws Exception {
    try (ClusterReplicas replicas = new ClusterReplicas(2).startAll()) {
      replicas.api(1).define("freeze", ClusterScenario.DEFINITION);
      // The producer speaks to replica 1 only: replica 0 only owns partitions.
      ClusterScenario.Producer producer =
          new ClusterScenario.Producer(replicas, "freeze", BATCHES, 40, i -> i == 1);
      Thread sending = producer.start();
      await().atMost(Duration.ofMinutes(2)).until(() -> producer.batch.get() >= BATCHES / 4);
      replicas.freeze(0);
      // Past the 6 s session timeout: the group gives replica 1 every partition.
      Thread.sleep(12_000);
      replicas.thaw(0);
      sending.join(TimeUnit.MINUTES.toMillis(5));
      assertThat(sending.isAlive()).isFalse();
      assertThat(producer.failure).isNull();
      assertThat(producer.errors.get()).isZero();
      ClusterScenario.assertExactlyOnce(replicas, "freeze", producer, 1);
      System.out.printf(
          "the thawed replica's refused commits: %d%n",
          replicas.log(0).lines().filter(l -> l.contains("FENCED")).count());
    }
  }
}
