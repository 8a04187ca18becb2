package io.eventide.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.kafka.KafkaTestBroker;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A rolling update: all three replicas stopped gracefully (SIGTERM) and started again one by one
 * while a producer posts to all of them. No request is answered 5xx, nothing acknowledged is lost
 * and nothing is counted twice.
 */
@ExtendWith(KafkaTestBroker.Stopper.class)
class ClusterRollingRestartTest {
  private static final int BATCHES = 150;

  @Test
  void restartingEveryReplicaInTurnLosesNothingAndAnswersNo5xx() throws Exception {
    try (ClusterReplicas replicas = new ClusterReplicas(3).startAll()) {
      replicas.api(0).define("rolling", ClusterScenario.DEFINITION);
      ClusterScenario.Producer producer =
          new ClusterScenario.Producer(replicas, "rolling", BATCHES, 40, i -> true);
      Thread sending = producer.start();
      for (int i = 0; i < replicas.count() && sending.isAlive(); i++) {
        replicas.stop(i);
        replicas.start(i);
        replicas.awaitReady(i);
      }
      sending.join(TimeUnit.MINUTES.toMillis(5));
      assertThat(sending.isAlive()).isFalse();
      assertThat(producer.failure).isNull();
      assertThat(producer.errors.get()).as("answers 5xx").isZero();
      ClusterScenario.assertExactlyOnce(replicas, "rolling", producer, 0);
    }
  }
}
