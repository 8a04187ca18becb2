package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.test.context.TestPropertySource;

/**
 * A pipeline whose topics never resolve holds up no other pipeline's output: its pane forwarder
 * retries with backoff while its panes wait in the pane log, its dead-letter topic is parked, and
 * health shows both. A forwarder that stays stuck past the log's retention counts what it lost and
 * goes on from what the log still holds.
 */
@TestPropertySource(
    properties = {
      "eventide.kafka.park-after=2s",
      "eventide.kafka.max-retry-backoff=1s",
      "eventide.state.pane-log-max-length=10"
    })
class KafkaTopicIsolationTest extends KafkaIntegrationTest {
  private static final String SINK =
      """
      {"window": {"type": "fixed", "size": "10m"},
       "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
       "aggregate": {"type": "count"}, "sinks": {"kafka": {}}}
      """;

  /** An event without a timestamp: invalid, so a dead letter. */
  private static final String INVALID = "{\"key\":\"a\",\"value\":1}";

  @Autowired KafkaHealthIndicator health;
  @Autowired KafkaForwarders forwarders;
  @Autowired MeterRegistry meters;

  @Test
  void topicsThatNeverResolveHoldUpNoOtherPipeline() throws Exception {
    // Kafka counts '.' and '_' alike, so once these exist, eventide.stuck.pipe.* can neither be
    // created nor found: every record for them is refused, for as long as one cares to retry.
    collide("eventide.stuck_pipe.panes", "eventide.stuck_pipe.dead-letters");
    define("stuck.pipe", SINK);
    ingest("stuck.pipe", event("a", "12:00:00", 1, null), INVALID);
    define("flowing", SINK);
    ingest("flowing", event("a", "12:00:00", 1, null), INVALID);

    assertThat(read("eventide.flowing.panes", 1)).hasSize(1);
    assertThat(read("eventide.flowing.dead-letters", 1)).hasSize(1);
    await()
        .atMost(PATIENCE)
        .untilAsserted(
            () -> {
              ingest("flowing", INVALID);
              Health h = health.health(true);
              assertThat(forwarder(h, "stuck.pipe").lastError()).contains("collides");
              assertThat(forwarder(h, "stuck.pipe").lease()).isTrue();
              assertThat(troubles(h))
                  .singleElement()
                  .satisfies(
                      t -> {
                        assertThat(t.topic()).isEqualTo("eventide.stuck.pipe.dead-letters");
                        assertThat(t.parked()).isTrue();
                        assertThat(t.lastError()).contains("collides");
                      });
            });
    Health parked = health.health(true);
    assertThat(parked.getStatus()).isEqualTo(Status.UP);
    assertThat(forwarder(parked, "flowing").lastError()).isNull();
    assertThat((Long) parked.getDetails().get("dropped")).isPositive();
    // Parked, its dead letters are dropped at once rather than filling the outbox the others share.
    ingest("stuck.pipe", INVALID);
    assertThat((Long) health.health(true).getDetails().get("dropped"))
        .isGreaterThan((Long) parked.getDetails().get("dropped"));
    ingest("flowing", event("a", "12:00:01", 1, null));
    assertThat(read("eventide.flowing.panes", 2)).hasSize(2);
  }

  @Test
  void aForwarderThatFellOutOfTheLogsRetentionCountsWhatItLostAndGoesOn() throws Exception {
    collide("eventide.behind_p.panes");
    define("behind.p", SINK);
    // The forwarder has read the (empty) log: from here on it counts what it reads.
    await().atMost(PATIENCE).until(() -> forwarders.statuses().get("behind.p").position() != null);
    for (int i = 0; i < 25; i++) {
      ingest("behind.p", event("a", "12:00:00", 1, null));
    }
    try (Admin admin = admin()) {
      admin.deleteTopics(List.of("eventide.behind_p.panes")).all().get();
    }

    // The log kept the last 10 panes: those arrive, and the 15 before them are counted as lost.
    List<ConsumerRecord<String, byte[]>> records = read("eventide.behind.p.panes", 10);
    assertThat(records)
        .extracting(r -> Integer.parseInt(header(r, KafkaPaneRecords.PANE_INDEX)))
        .containsExactly(15, 16, 17, 18, 19, 20, 21, 22, 23, 24);
    assertThat(
            meters
                .get("eventide.kafka.forwarder.lost")
                .tag("pipeline", "behind.p")
                .functionCounter()
                .count())
        .isEqualTo(15.0);
  }

  private static void collide(String... topics) throws Exception {
    try (Admin admin = admin()) {
      admin
          .createTopics(
              java.util.Arrays.stream(topics).map(t -> new NewTopic(t, 1, (short) 1)).toList())
          .all()
          .get();
    }
  }

  @SuppressWarnings("unchecked")
  private static PaneForwarder.Status forwarder(Health health, String pipeline) {
    return ((Map<String, PaneForwarder.Status>) health.getDetails().get("forwarders"))
        .get(pipeline);
  }

  @SuppressWarnings("unchecked")
  private static List<KafkaOutbox.Trouble> troubles(Health health) {
    return (List<KafkaOutbox.Trouble>) health.getDetails().get("troubledTopics");
  }
}
