package io.eventide.kafka;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * UP when the cluster answers within the timeout; the dead-letter outbox's counts come with it, so
 * that a backlog building up while Kafka is away is visible, and so do its topics that are failing
 * or parked, and this process's pane forwarders. One pipeline's topic that does not resolve leaves
 * the indicator UP: it holds up no other output, and taking the service out of readiness for it
 * would.
 */
class KafkaHealthIndicator extends AbstractHealthIndicator {
  private final Admin admin;
  private final KafkaOutbox outbox;
  private final KafkaForwarders forwarders;
  private final Duration timeout;

  KafkaHealthIndicator(
      Admin admin, KafkaOutbox outbox, KafkaForwarders forwarders, Duration timeout) {
    super("Kafka health check failed");
    this.admin = admin;
    this.outbox = outbox;
    this.forwarders = forwarders;
    this.timeout = timeout;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) throws Exception {
    builder
        .withDetail("pending", outbox.pending())
        .withDetail("delivered", outbox.delivered())
        .withDetail("dropped", outbox.dropped())
        .withDetail("failed", outbox.failed())
        .withDetail("troubledTopics", outbox.troubles())
        .withDetail("forwarders", forwarders.statuses());
    DescribeClusterResult cluster =
        admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()));
    String clusterId = cluster.clusterId().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    int brokers = cluster.nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).size();
    builder.up().withDetail("clusterId", clusterId).withDetail("brokers", brokers);
  }
}
