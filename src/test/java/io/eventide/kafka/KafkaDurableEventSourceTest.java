package io.eventide.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.eventide.state.OutputStore;
import io.eventide.state.TestRedis;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The event source with the Redis store: offsets are committed once a poll is applied, and a poll
 * delivered again after that (its offset commit lost) is applied once, dead letters included.
 */
class KafkaDurableEventSourceTest extends KafkaIntegrationTest {
  private static final String PIPELINE = "durable-source";
  private static final String TOPIC = "eventide.durable-source.clicks";
  private static final String GROUP = "eventide.durable-source.source";
  private static final String PREFIX = TestRedis.newKeyPrefix();

  @Autowired KafkaEventSources sources;
  @Autowired OutputStore store;
  @Autowired DuplicateCounter duplicates;

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    onRedis(registry, PREFIX);
  }

  @AfterAll
  static void deleteKeys() {
    TestRedis.delete(PREFIX);
  }

  @Test
  void aPollDeliveredAgainAfterItWasAppliedIsNotAppliedTwiceNorAreItsDeadLetters()
      throws Exception {
    try (EventTopic topic = new EventTopic(TOPIC)) {
      define(PIPELINE, EventTopic.definition(TOPIC));
      topic.sendTwentyEventsAndOneThatIsNotJson();
      topic.awaitTotals(store, PIPELINE, EventTopic.SUMS);
      await().atMost(PATIENCE).until(() -> topic.committed(GROUP) == 21);

      // The batches were applied, but the group's offsets go back, as when a rebalance takes the
      // partitions before the commit after a poll: the same records are delivered again.
      sources.stop(PIPELINE);
      topic.rewind(GROUP);
      sources.start(registry.find(PIPELINE).block());
      topic.sendLateComer(0);
      topic.awaitTotals(store, PIPELINE, EventTopic.SUMS_AND_LATE_COMER);

      assertThat(duplicates.of(PIPELINE)).as("redelivered events applied again").isZero();
      assertThat(read("eventide.durable-source.dead-letters", 1, Duration.ofSeconds(2))).hasSize(1);
    }
  }
}
