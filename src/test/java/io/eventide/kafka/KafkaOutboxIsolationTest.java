package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.test.context.TestPropertySource;

/**
 * A pipeline whose pane topic never resolves holds up no other pipeline's output: the topic is
 * retried with backoff beside the others, then parked, and health shows it.
 */
@TestPropertySource(
    properties = {"eventide.kafka.park-after=2s", "eventide.kafka.max-retry-backoff=1s"})
class KafkaOutboxIsolationTest extends KafkaIntegrationTest {
  private static final String SINK =
      """
      {"window": {"type": "fixed", "size": "10m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "aggregate": {"type": "count"}, "sinks": {"kafka": {}}}
      """;

  @Autowired KafkaHealthIndicator health;

  @Test
  void aTopicThatNeverResolvesIsParkedAndHoldsUpNoOtherTopic() throws Exception {
    // Kafka counts '.' and '_' alike, so once this exists, eventide.stuck.pipe.panes can neither
    // be created nor found: every record for it is refused, for as long as one cares to retry.
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic("eventide.stuck_pipe.panes", 1, (short) 1)))
          .all()
          .get();
    }
    define("stuck.pipe", SINK);
    ingest("stuck.pipe", event("a", "12:00:00", 1, null));
    define("flowing", SINK);
    ingest("flowing", event("a", "12:00:00", 1, null));

    assertThat(read("eventide.flowing.panes", 1)).hasSize(1);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              ingest("flowing", event("a", "12:00:00", 1, null));
              assertThat(troubles(health.health(true)))
                  .singleElement()
                  .satisfies(
                      t -> {
                        assertThat(t.topic()).isEqualTo("eventide.stuck.pipe.panes");
                        assertThat(t.parked()).isTrue();
                        assertThat(t.lastError()).contains("collides");
                      });
            });
    Health parked = health.health(true);
    assertThat(parked.getStatus()).isEqualTo(Status.UP);
    assertThat((Long) parked.getDetails().get("dropped")).isPositive();
    // Parked, its records are dropped at once rather than filling the outbox the others share.
    ingest("stuck.pipe", event("a", "12:00:01", 1, null));
    assertThat((Long) health.health(true).getDetails().get("dropped"))
        .isGreaterThan((Long) parked.getDetails().get("dropped"));
    assertThat(read("eventide.flowing.panes", 3)).hasSizeGreaterThanOrEqualTo(2);
  }

  @SuppressWarnings("unchecked")
  private static List<KafkaOutbox.Trouble> troubles(Health health) {
    return (List<KafkaOutbox.Trouble>) health.getDetails().get("troubledTopics");
  }
}
